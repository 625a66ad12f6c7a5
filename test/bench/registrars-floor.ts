import { Hono } from 'hono';
import { findRegistrarWithSchemes, listRegistrars } from '../../core/registrars/registrar-repository.ts';
import type { Database } from '../../db/client.ts';

/**
 * The registrar routes' floor: the same repository functions (the routes' own prepared SQL) behind a bare
 * Hono route, with no auth, tenancy check, validation or platform middleware; `tenantId` stands in for the
 * tenant authentication would find.
 */
export const registrarsFloor = (db: Database, tenantId: string) => {
  const floor = new Hono();
  floor.get('/registrars/:id', async (c) => {
    const row = await findRegistrarWithSchemes(db, tenantId, c.req.param('id'));
    return row ? c.json(row) : c.json({ error: 'Registrar not found' }, 404);
  });
  floor.get('/registrars', async (c) => {
    const { rows, total } = await listRegistrars(db, tenantId, { limit: 20, offset: 0 });
    return c.json({ data: rows, total });
  });
  return floor;
};
