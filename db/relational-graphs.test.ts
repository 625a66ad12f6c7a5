import {
  type AnyColumn,
  createTableRelationsHelpers,
  extractTablesRelationalConfig,
  getTableName,
  getTableUniqueName,
  is,
  normalizeRelation,
  Relations,
} from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { identifierGraph, masterDataGraph, type RelationalGraph } from './relational-graphs.ts';
import * as schema from './schema/index.ts';

const relationalConfig = (tables: Record<string, unknown>) => extractTablesRelationalConfig(tables, createTableRelationsHelpers);
const columnNames = (columns: AnyColumn[]) => columns.map((column) => `${getTableName(column.table)}.${column.name}`);

/** Why `graph` does not read as the whole schema does through the relational API (empty when it does). */
const graphProblems = (graph: RelationalGraph): string[] => {
  const whole = relationalConfig(schema);
  const part = relationalConfig(graph);
  const problems: string[] = [];
  for (const [name, value] of Object.entries(graph)) {
    if (value !== schema[name as keyof typeof schema]) problems.push(`${name} is not the schema's ${name}`);
    if (is(value, Relations) && !part.tableNamesMap[getTableUniqueName(value.table)]) problems.push(`${name}: its table is not in the graph`);
  }
  for (const [table, { relations }] of Object.entries(part.tables)) {
    const wholeRelations = whole.tables[table]!.relations;
    for (const missing of Object.keys(wholeRelations).filter((relation) => !(relation in relations))) problems.push(`${table}.${missing} is missing`);
    for (const [name, relation] of Object.entries(relations)) {
      if (!part.tableNamesMap[getTableUniqueName(relation.referencedTable)]) {
        problems.push(`${table}.${name} leads to ${getTableName(relation.referencedTable)}, not in the graph`);
        continue;
      }
      try {
        const joined = normalizeRelation(part.tables, part.tableNamesMap, relation);
        const expected = normalizeRelation(whole.tables, whole.tableNamesMap, wholeRelations[name]!);
        if (columnNames(joined.fields).join() !== columnNames(expected.fields).join() || columnNames(joined.references).join() !== columnNames(expected.references).join()) {
          problems.push(`${table}.${name} joins otherwise than on the whole schema`);
        }
      } catch (error) {
        problems.push(`${table}.${name}: ${(error as Error).message}`);
      }
    }
  }
  return problems;
};

describe('relational graphs (the part of the schema an edge client queries)', () => {
  it.each([
    ['identifierGraph', identifierGraph],
    ['masterDataGraph', masterDataGraph],
  ])('%s reads as the whole schema does: closed, every relation of its tables, the same joins', (_, graph) => {
    expect(graphProblems(graph)).toEqual([]);
  });

  it('finds a graph that is not closed', () => {
    const { serviceInstances: _left, schemeQualifiersRelations: _out, ...open } = identifierGraph;
    expect(graphProblems({ ...open, users: schema.users, tenantsRelations: schema.tenantsRelations })).toEqual([
      'tenantsRelations: its table is not in the graph',
      'registrars.idrServiceInstance leads to service_instances, not in the graph',
      'identifierSchemes.qualifiers: There is not enough information to infer relation "identifierSchemes.qualifiers"',
      'schemeQualifiers.scheme is missing',
      'users.tenant is missing',
    ]);
  });
});
