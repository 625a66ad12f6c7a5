import type { Database } from '../../db/client.ts';
import { organisations, organisationSecondaryIdentifiers } from '../../db/schema/index.ts';
import { identifierWithScheme, secondaryIdentifiersWithScheme } from '../master-data/identifier-relations.ts';
import {
  createMasterRecords,
  deleteMasterRecord,
  listMasterRecords,
  updateMasterRecord,
  type MasterKind,
} from '../master-data/master-record.ts';

const ORGANISATION: MasterKind<typeof organisations> = {
  label: 'Organisation',
  kind: 'organisation',
  table: organisations,
  secondary: organisationSecondaryIdentifiers,
};
export type OrganisationRow = typeof organisations.$inferSelect;

export interface OrganisationInput {
  name: string;
  description?: string | null;
  location?: Record<string, unknown> | null;
  primaryIdentifierId?: string | null;
  secondaryIdentifierIds?: string[];
}
export type OrganisationPatch = Partial<OrganisationInput>;

/** Creates every organisation or none (see `createMasterRecords`). */
export const createOrganisations = (db: Database, tenantId: string, items: OrganisationInput[]) =>
  createMasterRecords(db, ORGANISATION, tenantId, items);

export const listOrganisations = (db: Database, tenantId: string, filter: { search?: string }, page: { limit: number; offset: number }) =>
  listMasterRecords(db, ORGANISATION, tenantId, [], filter.search, page);

/** Organisations by id with their identifiers (scheme and registrar included), in one query. */
export const findOrganisations = (db: Database, tenantId: string, ids: string[]) =>
  db.query.organisations.findMany({
    where: (o, { and, eq, inArray }) => and(eq(o.tenantId, tenantId), inArray(o.id, ids)),
    with: { primaryIdentifier: identifierWithScheme, secondaryIdentifiers: secondaryIdentifiersWithScheme },
  });

export const findOrganisation = async (db: Database, tenantId: string, id: string) => (await findOrganisations(db, tenantId, [id]))[0];

/** PATCH: `description` and `primaryIdentifierId` null clear; a secondary set replaces (empty clears). */
export const updateOrganisation = (db: Database, tenantId: string, id: string, patch: OrganisationPatch) =>
  updateMasterRecord(db, ORGANISATION, tenantId, id, patch);

/**
 * Deletes one of the tenant's organisations. Facilities it operates and products it produced keep
 * existing with the reference cleared (database foreign keys, `on delete set null`).
 */
export const deleteOrganisation = (db: Database, tenantId: string, id: string) => deleteMasterRecord(db, ORGANISATION, tenantId, id);
