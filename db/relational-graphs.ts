import type * as schema from './schema/index.ts';
import {
  facilities,
  facilitiesRelations,
  facilitySecondaryIdentifiers,
  facilitySecondaryIdentifiersRelations,
  identifierSchemes,
  identifierSchemesRelations,
  identifiers,
  identifiersRelations,
  organisations,
  organisationSecondaryIdentifiers,
  organisationSecondaryIdentifiersRelations,
  organisationsRelations,
  products,
  productSecondaryIdentifiers,
  productSecondaryIdentifiersRelations,
  productsRelations,
  registrars,
  registrarsRelations,
  schemeQualifiers,
  schemeQualifiersRelations,
  serviceInstances,
} from './schema/index.ts';

/**
 * A part of the schema for the relational API (`db.query`): tables under their schema names and the relations
 * between them, closed (every relation of a table is there and leads to a table of the graph), so any `with`
 * works as on the whole schema (db/relational-graphs.test.ts). Node processes query the whole schema; an edge
 * group's client gets only the graph its group reads, so its bundle carries no other table.
 */
export type RelationalGraph = Partial<typeof schema>;

/** Identifiers with their scheme, the scheme's qualifiers and registrar; registrars with their schemes. */
export const identifierGraph = {
  registrars,
  identifierSchemes,
  schemeQualifiers,
  identifiers,
  serviceInstances,
  registrarsRelations,
  identifierSchemesRelations,
  schemeQualifiersRelations,
  identifiersRelations,
} satisfies RelationalGraph;

/** Organisations, facilities and products with their primary and secondary identifiers and each other. */
export const masterDataGraph = {
  ...identifierGraph,
  organisations,
  facilities,
  products,
  organisationSecondaryIdentifiers,
  facilitySecondaryIdentifiers,
  productSecondaryIdentifiers,
  organisationsRelations,
  facilitiesRelations,
  productsRelations,
  organisationSecondaryIdentifiersRelations,
  facilitySecondaryIdentifiersRelations,
  productSecondaryIdentifiersRelations,
} satisfies RelationalGraph;
