import { count } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  facilities,
  facilitySecondaryIdentifiers,
  organisations,
  organisationSecondaryIdentifiers,
  products,
  productSecondaryIdentifiers,
} from '../../db/schema/index.ts';
import { createIdentifier, createScheme } from './scheme-fixtures.ts';
import type { TestApp } from './test-app.ts';

/** Identifiers of the caller's tenant under one fresh scheme (14-digit GTIN-like values). */
export const createIdentifiers = async (t: TestApp, token: string, n: number, seed = Math.floor(Math.random() * 1e6)) => {
  const scheme = await createScheme(t, token);
  const made: { id: string; value: string }[] = [];
  for (let i = 0; i < n; i++) {
    made.push(await createIdentifier(t, token, scheme.id, String(seed * 100 + i).padStart(14, '0')));
  }
  return made;
};

/** Creates records through a bulk endpoint; throws unless 201. */
export const bulkCreate = async (t: TestApp, token: string, path: string, items: Record<string, unknown>[]) => {
  const res = await t.call('POST', `/api/v1/${path}`, { token, body: items });
  if (res.status !== 201) throw new Error(`${path} fixture: ${res.status} ${res.text}`);
  return res.body as { id: string }[];
};

/** Row counts of every master-data table, for "nothing was written" assertions. */
export const countMasterData = async (db: Database) => {
  const tables = {
    organisations,
    facilities,
    products,
    organisationSecondary: organisationSecondaryIdentifiers,
    facilitySecondary: facilitySecondaryIdentifiers,
    productSecondary: productSecondaryIdentifiers,
  };
  const entries = await Promise.all(
    Object.entries(tables).map(async ([name, table]) => [name, (await db.select({ n: count() }).from(table))[0]!.n] as const),
  );
  return Object.fromEntries(entries);
};
