import { count, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { identifiers, identifierSchemes, schemeQualifiers } from '../../db/schema/index.ts';
import type { TestApp } from './test-app.ts';

/** Request bodies and API-made records for the scheme and identifier tests. */
export const registrarBody = { name: 'GS1', namespace: 'gs1', url: 'https://www.gs1.org' };

export const gtinBody = (registrarId: string, overrides: Record<string, unknown> = {}) => ({
  registrarId,
  name: 'Global Trade Item Number',
  primaryKey: '01',
  validationPattern: '^\\d{14}$',
  linkTemplate: '/{primaryKey}/{value}',
  qualifiers: [
    { key: '21', description: 'Serial number', validationPattern: '^[A-Za-z0-9]{1,20}$', order: 2 },
    { key: '10', description: 'Batch or lot number', validationPattern: '^[A-Za-z0-9]{1,20}$', order: 1 },
  ],
  ...overrides,
});

export const GTIN = '09520123456788';

/** A registrar of the caller's tenant, made through the API. */
export const createRegistrar = async (t: TestApp, token: string, name = 'GS1') => {
  const res = await t.call('POST', '/api/v1/registrars', { token, body: { ...registrarBody, name } });
  if (res.status !== 201) throw new Error(`registrar fixture: ${res.status} ${res.text}`);
  return res.body as { id: string };
};

/** A scheme of the caller's tenant (a new registrar unless one is given), made through the API. */
export const createScheme = async (t: TestApp, token: string, overrides: Record<string, unknown> = {}) => {
  const registrarId = (overrides.registrarId as string | undefined) ?? (await createRegistrar(t, token)).id;
  const res = await t.call('POST', '/api/v1/schemes', { token, body: gtinBody(registrarId, overrides) });
  if (res.status !== 201) throw new Error(`scheme fixture: ${res.status} ${res.text}`);
  return res.body as { id: string; registrarId: string; qualifiers: { id: string; key: string }[] };
};

export const createIdentifier = async (t: TestApp, token: string, schemeId: string, value = GTIN) => {
  const res = await t.call('POST', '/api/v1/identifiers', { token, body: { schemeId, value } });
  if (res.status !== 201) throw new Error(`identifier fixture: ${res.status} ${res.text}`);
  return res.body as { id: string; schemeId: string; value: string };
};

/** Row counts for "nothing was written" assertions. */
export const countRows = async (db: Database) => {
  const [[schemes], [qualifiers], [ids]] = await Promise.all([
    db.select({ n: count() }).from(identifierSchemes),
    db.select({ n: count() }).from(schemeQualifiers),
    db.select({ n: count() }).from(identifiers),
  ]);
  return { schemes: schemes!.n, qualifiers: qualifiers!.n, identifiers: ids!.n };
};

export const qualifiersOf = (db: Database, schemeId: string) =>
  db.select().from(schemeQualifiers).where(eq(schemeQualifiers.schemeId, schemeId));

/** Resolves once some backend of this database waits on a lock (a request blocked by a test's transaction). */
export const untilABackendWaitsOnALock = async (db: Database, timeoutMs = 10_000) => {
  const started = Date.now();
  for (;;) {
    const rows = await db.execute<{ waiting: number }>(
      sql`select count(*)::int as waiting from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if ((rows[0]?.waiting ?? 0) > 0) return;
    if (Date.now() - started > timeoutMs) throw new Error('no backend started waiting on a lock');
    await new Promise((r) => setTimeout(r, 20));
  }
};
