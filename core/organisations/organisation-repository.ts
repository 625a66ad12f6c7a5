import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { organisations, organisationSecondaryIdentifiers } from '../../db/schema/index.ts';
import { notFound } from '../errors.ts';
import { createId } from '../ids.ts';
import { identifierWithScheme, secondaryIdentifiersWithScheme } from '../master-data/identifier-relations.ts';
import {
  assertOwnIdentifiers,
  assertPrimariesDistinct,
  assertPrimariesFree,
  assertPrimaryFree,
  assertRefsConsistent,
  referencedIdentifiers,
} from '../master-data/identifier-refs.ts';
import { selectPage } from '../master-data/page-query.ts';
import { searchCondition } from '../master-data/search.ts';
import { insertSecondaryIdentifiers, replaceSecondaryIdentifiers, secondaryIdsByOwner } from '../master-data/secondary-identifiers.ts';
import { translatePrimaryRace } from '../master-data/unique-primary.ts';

const KIND = 'organisation';
export type OrganisationRow = typeof organisations.$inferSelect;

export interface OrganisationInput {
  name: string;
  description?: string | null;
  location?: Record<string, unknown> | null;
  primaryIdentifierId?: string | null;
  secondaryIdentifierIds?: string[];
}
export type OrganisationPatch = Partial<OrganisationInput>;

const own = (tenantId: string, id: string) => and(eq(organisations.id, id), eq(organisations.tenantId, tenantId));

/**
 * Creates every organisation or none: all references are checked first (400/404/409 naming the item),
 * then one transaction writes them all.
 */
export const createOrganisations = async (db: Database, tenantId: string, items: OrganisationInput[]) => {
  items.forEach((item, i) => assertRefsConsistent(item, `[${i}].`));
  assertPrimariesDistinct(items, KIND);
  const rows = items.map((item) => ({
    id: createId(),
    tenantId,
    name: item.name,
    description: item.description ?? null,
    location: item.location ?? null,
    primaryIdentifierId: item.primaryIdentifierId ?? null,
  }));
  try {
    await db.transaction(async (tx) => {
      await assertOwnIdentifiers(
        tx,
        tenantId,
        items.flatMap((item, i) => referencedIdentifiers(item, `[${i}].`)),
      );
      await assertPrimariesFree(tx, organisations, KIND, items);
      await tx.insert(organisations).values(rows);
      await insertSecondaryIdentifiers(
        tx,
        organisationSecondaryIdentifiers,
        items.map((item, i) => ({ ownerId: rows[i]!.id, ids: item.secondaryIdentifierIds })),
      );
    });
  } catch (error) {
    throw translatePrimaryRace(error, KIND);
  }
  return rows.map((r) => r.id);
};

/** The tenant's organisations, newest first, each with its secondary identifier ids. */
export const listOrganisations = async (
  db: Database,
  tenantId: string,
  filter: { search?: string },
  page: { limit: number; offset: number },
) => {
  const where = and(
    eq(organisations.tenantId, tenantId),
    filter.search ? searchCondition(filter.search, tenantId, organisations, organisationSecondaryIdentifiers) : undefined,
  );
  const { rows, total } = await selectPage(db, organisations, where, [desc(organisations.createdAt), desc(organisations.id)], page, Boolean(filter.search));
  const secondary = await secondaryIdsByOwner(db, organisationSecondaryIdentifiers, rows.map((r) => r.id));
  return {
    rows: rows.map((row) => ({ ...row, secondaryIdentifierIds: secondary.get(row.id) ?? [] })),
    total,
  };
};

/** Organisations by id with their identifiers (scheme and registrar included), in one query. */
export const findOrganisations = (db: Database, tenantId: string, ids: string[]) =>
  db.query.organisations.findMany({
    where: (o, { and, eq, inArray }) => and(eq(o.tenantId, tenantId), inArray(o.id, ids)),
    with: { primaryIdentifier: identifierWithScheme, secondaryIdentifiers: secondaryIdentifiersWithScheme },
  });

export const findOrganisation = async (db: Database, tenantId: string, id: string) => {
  const [row] = await findOrganisations(db, tenantId, [id]);
  return row;
};

/**
 * Applies a PATCH: stated fields only; `description` and `primaryIdentifierId` null clear; a
 * `secondaryIdentifierIds` array replaces the set (empty clears). The result must still satisfy the
 * identifier rules, checked against the merged state.
 */
export const updateOrganisation = async (db: Database, tenantId: string, id: string, patch: OrganisationPatch) => {
  try {
    await db.transaction(async (tx) => {
      const [current] = await tx.select().from(organisations).where(own(tenantId, id)).for('update');
      if (!current) throw notFound('Organisation');
      const secondaryIds =
        patch.secondaryIdentifierIds ??
        (await secondaryIdsByOwner(tx, organisationSecondaryIdentifiers, [id])).get(id) ??
        [];
      const primary = patch.primaryIdentifierId === undefined ? current.primaryIdentifierId : patch.primaryIdentifierId;
      assertRefsConsistent({ primaryIdentifierId: primary, secondaryIdentifierIds: secondaryIds });
      await assertOwnIdentifiers(
        tx,
        tenantId,
        referencedIdentifiers({
          primaryIdentifierId: patch.primaryIdentifierId,
          secondaryIdentifierIds: patch.secondaryIdentifierIds,
        }),
      );
      if (patch.primaryIdentifierId) {
        await assertPrimaryFree(tx, organisations, KIND, patch.primaryIdentifierId, 'primaryIdentifierId', id);
      }
      const { secondaryIdentifierIds, ...columns } = patch;
      await tx.update(organisations).set({ ...columns, updatedAt: new Date() }).where(own(tenantId, id));
      if (secondaryIdentifierIds) {
        await replaceSecondaryIdentifiers(tx, organisationSecondaryIdentifiers, id, secondaryIdentifierIds);
      }
    });
  } catch (error) {
    throw translatePrimaryRace(error, KIND);
  }
};

/**
 * Deletes one of the tenant's organisations. Facilities it operates and products it produced keep
 * existing with the reference cleared (database foreign keys, `on delete set null`).
 */
export const deleteOrganisation = async (db: Database, tenantId: string, id: string): Promise<void> => {
  const deleted = await db.delete(organisations).where(own(tenantId, id)).returning({ id: organisations.id });
  if (deleted.length === 0) throw notFound('Organisation');
};
