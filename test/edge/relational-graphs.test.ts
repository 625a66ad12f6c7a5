import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as graphs from '../../db/relational-graphs.ts';
import { bundleEdgeEntry, edgeEntries } from '../../scripts/edge-bundle.ts';

/** The tables `db.query.<table>` reads in these sources. */
const queriedTables = (sources: string[]) => [...new Set(sources.flatMap((source) => [...source.matchAll(/\.query\.(\w+)\b/g)].map((m) => m[1]!)))].sort();

/** The graph an edge entry hands its client (`graph: <name>` of db/relational-graphs.ts), none if it names none. */
const graphOf = (edgeSource: string): Record<string, unknown> | undefined => {
  const name = /\bgraph: (\w+)/.exec(edgeSource)?.[1];
  return name === undefined ? {} : (graphs as Record<string, Record<string, unknown> | undefined>)[name];
};

/**
 * An edge group's client knows only the tables of the graph its edge.ts names: every table its bundled code
 * reads through `db.query` must be one of them, else that query fails there at run time. The Node processes,
 * which query the whole schema, would not show it.
 */
describe('relational graphs of the edge groups', () => {
  const groups = edgeEntries().filter((e) => e.entry.startsWith('functions'));
  const queried = new Map<string, { tables: string[]; graph: Record<string, unknown> | undefined }>();
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'css-relational-graphs-'));
    for (const { group, entry, platform } of groups) {
      const { inputs } = await bundleEdgeEntry(entry, join(dir, `${group}.js`), platform);
      const ours = Object.keys(inputs).filter((file) => !file.includes('node_modules') && file.endsWith('.ts'));
      queried.set(group, { tables: queriedTables(await Promise.all(ours.map((file) => readFile(file, 'utf8')))), graph: graphOf(await readFile(entry, 'utf8')) });
    }
  }, 120_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('finds what a group reads through db.query', () => {
    expect(queried.get('identifiers')?.tables).toEqual(['identifierSchemes', 'identifiers']);
    expect(queriedTables(["db.query.products.findMany({ with: { parent: true } })", "c.req.query('limit')"])).toEqual(['products']);
  });

  it.each(groups.map((e) => e.group))('%s reads only tables of its graph', (group) => {
    const { tables, graph } = queried.get(group)!;
    expect(graph, `${group}: edge.ts names a graph db/relational-graphs.ts does not export`).toBeDefined();
    expect(tables.filter((table) => !(table in graph!)), `${group}: read through db.query, not in its graph`).toEqual([]);
  });
});
