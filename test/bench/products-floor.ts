import { Hono } from 'hono';
import { createProducts, listProducts, type ProductInput } from '../../core/products/product-repository.ts';
import type { ProductLevel } from '../../db/schema/index.ts';
import type { Database } from '../../db/client.ts';

/**
 * The products routes' floor: the same domain functions (`createProducts`, `listProducts`: the same SQL)
 * behind a bare Hono route, with no auth, tenancy check, validation or platform middleware; `tenantId`
 * stands in for the tenant authentication would find.
 */
export const productsFloor = (db: Database, tenantId: string) => {
  const floor = new Hono();
  floor.post('/products', async (c) => c.json(await createProducts(db, tenantId, await c.req.json<ProductInput[]>()), 201));
  floor.get('/products', async (c) => {
    const { search, level, limit } = c.req.query();
    const page = { limit: Number(limit ?? 20), offset: 0 };
    return c.json(await listProducts(db, tenantId, { search, level: level as ProductLevel | undefined }, page));
  });
  return floor;
};
