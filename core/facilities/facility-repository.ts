import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { facilities, facilitySecondaryIdentifiers, organisations } from '../../db/schema/index.ts';
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
import { lockOwnRecords } from '../master-data/own-records.ts';
import { selectPage } from '../master-data/page-query.ts';
import { searchCondition } from '../master-data/search.ts';
import { insertSecondaryIdentifiers, replaceSecondaryIdentifiers, secondaryIdsByOwner } from '../master-data/secondary-identifiers.ts';
import { translatePrimaryRace } from '../master-data/unique-primary.ts';

const KIND = 'facility';
export type FacilityRow = typeof facilities.$inferSelect;

export interface FacilityInput {
  name: string;
  description?: string;
  location?: Record<string, unknown>;
  operatingOrganisationId?: string;
  primaryIdentifierId?: string;
  secondaryIdentifierIds?: string[];
}
export interface FacilityPatch {
  name?: string;
  description?: string | null;
  location?: Record<string, unknown>;
  operatingOrganisationId?: string | null;
  primaryIdentifierId?: string | null;
  secondaryIdentifierIds?: string[];
}

const own = (tenantId: string, id: string) => and(eq(facilities.id, id), eq(facilities.tenantId, tenantId));

const organisationRefs = (items: { operatingOrganisationId?: string | null }[], prefix: (i: number) => string) =>
  items.flatMap((item, i) =>
    item.operatingOrganisationId ? [{ field: `${prefix(i)}operatingOrganisationId`, id: item.operatingOrganisationId }] : [],
  );

/** Creates every facility or none (references checked first, one transaction). */
export const createFacilities = async (db: Database, tenantId: string, items: FacilityInput[]) => {
  items.forEach((item, i) => assertRefsConsistent(item, `[${i}].`));
  assertPrimariesDistinct(items, KIND);
  const rows = items.map(({ secondaryIdentifierIds: _, ...item }) => ({ ...item, id: createId(), tenantId }));
  try {
    await db.transaction(async (tx) => {
      await lockOwnRecords(tx, organisations, tenantId, organisationRefs(items, (i) => `[${i}].`), 'organisation', {});
      await assertOwnIdentifiers(tx, tenantId, items.flatMap((item, i) => referencedIdentifiers(item, `[${i}].`)));
      await assertPrimariesFree(tx, facilities, KIND, items);
      await tx.insert(facilities).values(rows);
      await insertSecondaryIdentifiers(
        tx,
        facilitySecondaryIdentifiers,
        items.map((item, i) => ({ ownerId: rows[i]!.id, ids: item.secondaryIdentifierIds })),
      );
    });
  } catch (error) {
    throw translatePrimaryRace(error, KIND);
  }
  return rows.map((r) => r.id);
};

/** The tenant's facilities, newest first, each with its secondary identifier ids. */
export const listFacilities = async (
  db: Database,
  tenantId: string,
  filter: { search?: string; organisationId?: string },
  page: { limit: number; offset: number },
) => {
  const where = and(
    eq(facilities.tenantId, tenantId),
    filter.organisationId ? eq(facilities.operatingOrganisationId, filter.organisationId) : undefined,
    filter.search ? searchCondition(filter.search, tenantId, facilities, facilitySecondaryIdentifiers) : undefined,
  );
  const { rows, total } = await selectPage(db, facilities, where, [desc(facilities.createdAt), desc(facilities.id)], page, Boolean(filter.search));
  const secondary = await secondaryIdsByOwner(db, facilitySecondaryIdentifiers, rows.map((r) => r.id));
  return {
    rows: rows.map((row) => ({ ...row, secondaryIdentifierIds: secondary.get(row.id) ?? [] })),
    total,
  };
};

/** Facilities by id with identifiers (scheme and registrar included) and operating organisation. */
export const findFacilities = (db: Database, tenantId: string, ids: string[]) =>
  db.query.facilities.findMany({
    where: (f, { and, eq, inArray }) => and(eq(f.tenantId, tenantId), inArray(f.id, ids)),
    with: {
      primaryIdentifier: identifierWithScheme,
      secondaryIdentifiers: secondaryIdentifiersWithScheme,
      operatingOrganisation: true,
    },
  });

export const findFacility = async (db: Database, tenantId: string, id: string) => {
  const [row] = await findFacilities(db, tenantId, [id]);
  return row;
};

/** Applies a PATCH (stated fields only; the nullable ones clear with null), re-checking every rule. */
export const updateFacility = async (db: Database, tenantId: string, id: string, patch: FacilityPatch) => {
  try {
    await db.transaction(async (tx) => {
      const [current] = await tx.select().from(facilities).where(own(tenantId, id)).for('update');
      if (!current) throw notFound('Facility');
      const secondaryIds =
        patch.secondaryIdentifierIds ?? (await secondaryIdsByOwner(tx, facilitySecondaryIdentifiers, [id])).get(id) ?? [];
      const primary = patch.primaryIdentifierId === undefined ? current.primaryIdentifierId : patch.primaryIdentifierId;
      assertRefsConsistent({ primaryIdentifierId: primary, secondaryIdentifierIds: secondaryIds });
      await lockOwnRecords(tx, organisations, tenantId, organisationRefs([patch], () => ''), 'organisation', {});
      await assertOwnIdentifiers(tx, tenantId, referencedIdentifiers(patch));
      if (patch.primaryIdentifierId) {
        await assertPrimaryFree(tx, facilities, KIND, patch.primaryIdentifierId, 'primaryIdentifierId', id);
      }
      const { secondaryIdentifierIds, ...columns } = patch;
      await tx.update(facilities).set({ ...columns, updatedAt: new Date() }).where(own(tenantId, id));
      if (secondaryIdentifierIds) await replaceSecondaryIdentifiers(tx, facilitySecondaryIdentifiers, id, secondaryIdentifierIds);
    });
  } catch (error) {
    throw translatePrimaryRace(error, KIND);
  }
};

/** Deletes one of the tenant's facilities; products made there keep existing with the reference cleared. */
export const deleteFacility = async (db: Database, tenantId: string, id: string): Promise<void> => {
  const deleted = await db.delete(facilities).where(own(tenantId, id)).returning({ id: facilities.id });
  if (deleted.length === 0) throw notFound('Facility');
};
