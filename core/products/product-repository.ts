import { and, eq } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import { facilities, organisations, products, productSecondaryIdentifiers, type ProductLevel } from '../../db/schema/index.ts';
import { badRequest, notFound } from '../errors.ts';
import { identifierWithScheme, secondaryIdentifiersWithScheme } from '../master-data/identifier-relations.ts';
import { createMasterRecords, listMasterRecords, updateMasterRecord, type MasterKind } from '../master-data/master-record.ts';
import { lockOwnRecords } from '../master-data/own-records.ts';
import { assertHierarchy } from './hierarchy.ts';

const PRODUCT: MasterKind<typeof products> = { label: 'Product', kind: 'product', table: products, secondary: productSecondaryIdentifiers };
export type ProductRow = typeof products.$inferSelect;

interface References {
  parentId?: string | null;
  producedByOrganisationId?: string | null;
  manufacturingFacilityId?: string | null;
  primaryIdentifierId?: string | null;
  secondaryIdentifierIds?: string[];
}
export interface ProductInput extends References {
  name: string;
  level: ProductLevel;
  description?: string;
}
export interface ProductPatch extends References {
  name?: string;
  description?: string;
}

const own = (tenantId: string, id: string) => and(eq(products.id, id), eq(products.tenantId, tenantId));

/**
 * Locks the organisations, facilities and parents the items reference (404 naming the field when
 * missing or another tenant's) and returns the parents' levels.
 */
const lockReferences = async (tx: Queryable, tenantId: string, items: References[], prefix: (i: number) => string) => {
  const refs = (key: 'parentId' | 'producedByOrganisationId' | 'manufacturingFacilityId') =>
    items.flatMap((item, i) => (item[key] ? [{ field: `${prefix(i)}${key}`, id: item[key] }] : []));
  await lockOwnRecords(tx, organisations, tenantId, refs('producedByOrganisationId'), 'organisation', {});
  await lockOwnRecords(tx, facilities, tenantId, refs('manufacturingFacilityId'), 'facility', {});
  return lockOwnRecords<{ level: ProductLevel }>(tx, products, tenantId, refs('parentId'), 'parent product', {
    level: products.level,
  });
};

/** Creates every product or none: the hierarchy and every reference are checked per item first. */
export const createProducts = async (db: Database, tenantId: string, items: ProductInput[]) => {
  // A MODEL with a parent, or a BATCH without one, is wrong whatever exists: say so before any lookup.
  items.forEach((item, i) => {
    if (!item.parentId) assertHierarchy(item.level, null, `[${i}].parentId`);
    else if (item.level === 'MODEL') assertHierarchy('MODEL', 'MODEL', `[${i}].parentId`);
  });
  return createMasterRecords(db, PRODUCT, tenantId, items, async (tx) => {
    const parents = await lockReferences(tx, tenantId, items, (i) => `[${i}].`);
    items.forEach((item, i) => {
      if (item.parentId) assertHierarchy(item.level, parents.get(item.parentId)!.level, `[${i}].parentId`);
    });
  });
};

export interface ProductFilter {
  search?: string;
  level?: ProductLevel;
  parentId?: string;
  organisationId?: string;
  facilityId?: string;
}

/** The tenant's products, newest first, each with its secondary identifier ids. */
export const listProducts = (db: Database, tenantId: string, filter: ProductFilter, page: { limit: number; offset: number }) =>
  listMasterRecords(
    db,
    PRODUCT,
    tenantId,
    [
      filter.level ? eq(products.level, filter.level) : undefined,
      filter.parentId ? eq(products.parentId, filter.parentId) : undefined,
      filter.organisationId ? eq(products.producedByOrganisationId, filter.organisationId) : undefined,
      filter.facilityId ? eq(products.manufacturingFacilityId, filter.facilityId) : undefined,
    ],
    filter.search,
    page,
  );

/** Products by id with identifiers, producing organisation, manufacturing facility and parent. */
export const findProducts = (db: Database, tenantId: string, ids: string[]) =>
  db.query.products.findMany({
    where: (p, { and, eq, inArray }) => and(eq(p.tenantId, tenantId), inArray(p.id, ids)),
    with: {
      primaryIdentifier: identifierWithScheme,
      secondaryIdentifiers: secondaryIdentifiersWithScheme,
      producedByOrganisation: true,
      manufacturingFacility: true,
      parent: true,
    },
  });

export const findProduct = async (db: Database, tenantId: string, id: string) => {
  const [row] = await findProducts(db, tenantId, [id]);
  return row;
};

/**
 * Applies a PATCH: stated fields only (level is immutable and never reaches here); parentId,
 * producedByOrganisationId, manufacturingFacilityId and primaryIdentifierId clear with null; the
 * hierarchy is re-checked against the product's level.
 */
export const updateProduct = (db: Database, tenantId: string, id: string, patch: ProductPatch) =>
  updateMasterRecord(db, PRODUCT, tenantId, id, patch, async (tx, current) => {
    if (patch.parentId === null) assertHierarchy(current.level, null, 'parentId');
    if (patch.parentId && current.level === 'MODEL') assertHierarchy('MODEL', 'MODEL', 'parentId');
    const parents = await lockReferences(tx, tenantId, [patch], () => '');
    if (patch.parentId) assertHierarchy(current.level, parents.get(patch.parentId)!.level, 'parentId');
  });

/**
 * Deletion table: a MODEL with BATCH children is blocked (400, a hierarchy rule; nothing removed); a BATCH with ITEM
 * children goes and the items' parentId becomes null (foreign key `on delete set null`). The row is
 * locked first so a child created concurrently either commits before the check or waits and fails.
 */
export const deleteProduct = async (db: Database, tenantId: string, id: string): Promise<void> => {
  await db.transaction(async (tx) => {
    const [current] = await tx.select({ level: products.level }).from(products).where(own(tenantId, id)).for('update');
    if (!current) throw notFound('Product');
    if (current.level === 'MODEL') {
      const [child] = await tx.select({ id: products.id }).from(products).where(eq(products.parentId, id)).limit(1);
      if (child) throw badRequest('id: the MODEL product still has BATCH products; delete or re-parent them first', 'PRODUCT_HAS_BATCHES');
    }
    await tx.delete(products).where(own(tenantId, id));
  });
};
