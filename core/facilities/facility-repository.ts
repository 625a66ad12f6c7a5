import { eq } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import { facilities, facilitySecondaryIdentifiers, organisations } from '../../db/schema/index.ts';
import { identifierWithScheme, secondaryIdentifiersWithScheme } from '../master-data/identifier-relations.ts';
import {
  createMasterRecords,
  deleteMasterRecord,
  listMasterRecords,
  updateMasterRecord,
  type MasterKind,
} from '../master-data/master-record.ts';
import { lockOwnRecords } from '../master-data/own-records.ts';

const FACILITY: MasterKind<typeof facilities> = {
  label: 'Facility',
  kind: 'facility',
  table: facilities,
  secondary: facilitySecondaryIdentifiers,
};
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

/** Operating organisations must be the tenant's own (404 naming the field), locked for the write. */
const lockOperators = (tx: Queryable, tenantId: string, items: { operatingOrganisationId?: string | null }[], prefix: (i: number) => string) =>
  lockOwnRecords(
    tx,
    organisations,
    tenantId,
    items.flatMap((item, i) => (item.operatingOrganisationId ? [{ field: `${prefix(i)}operatingOrganisationId`, id: item.operatingOrganisationId }] : [])),
    'organisation',
    {},
  );

/** Creates every facility or none. */
export const createFacilities = (db: Database, tenantId: string, items: FacilityInput[]) =>
  createMasterRecords(db, FACILITY, tenantId, items, (tx) => lockOperators(tx, tenantId, items, (i) => `[${i}].`).then(() => {}));

export const listFacilities = (
  db: Database,
  tenantId: string,
  filter: { search?: string; organisationId?: string },
  page: { limit: number; offset: number },
) =>
  listMasterRecords(
    db,
    FACILITY,
    tenantId,
    [filter.organisationId ? eq(facilities.operatingOrganisationId, filter.organisationId) : undefined],
    filter.search,
    page,
  );

/** Facilities by id with identifiers (scheme and registrar included) and operating organisation. */
export const findFacilities = (db: Database, tenantId: string, ids: string[]) =>
  db.query.facilities.findMany({
    where: (f, { and, eq, inArray }) => and(eq(f.tenantId, tenantId), inArray(f.id, ids)),
    with: { primaryIdentifier: identifierWithScheme, secondaryIdentifiers: secondaryIdentifiersWithScheme, operatingOrganisation: true },
  });

export const findFacility = async (db: Database, tenantId: string, id: string) => (await findFacilities(db, tenantId, [id]))[0];

/** PATCH: stated fields only; the nullable ones clear with null; every rule re-checked. */
export const updateFacility = (db: Database, tenantId: string, id: string, patch: FacilityPatch) =>
  updateMasterRecord(db, FACILITY, tenantId, id, patch, (tx) => lockOperators(tx, tenantId, [patch], () => '').then(() => {}));

/** Deletes one of the tenant's facilities; products made there keep existing with the reference cleared. */
export const deleteFacility = (db: Database, tenantId: string, id: string) => deleteMasterRecord(db, FACILITY, tenantId, id);
