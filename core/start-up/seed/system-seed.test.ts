import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSystemServices, SYSTEM_SERVICE_IDS } from '../../settings/system-services.ts';
import { createEmptyDatabase, type TestDatabase } from '../../../test/rig/databases.ts';
import { TEST_ENCRYPTION_KEY } from '../../../test/rig/test-settings.ts';
import { startTestApp, type TestApp } from '../../../test/rig/test-app.ts';
import { connectDatabase, type Database, type DatabaseHandle } from '../../../db/client.ts';
import { prepareDatabase } from '../prepare-database.ts';
import { identifierSchemes, registrars, schemeQualifiers, tenants } from '../../../db/schema/index.ts';
import { SYSTEM_TENANT_ID } from '../../../db/system-tenant.ts';
import { applySystemSeed } from './apply-system-seed.ts';
import { readSystemSeedFile, seedFileError } from './system-seed-file.ts';

const EXAMPLE = new URL('./system-seed.example.json', import.meta.url).pathname;
const IDS = {
  gs1: 'ynsca07b9z9c7gyn121lh2rc',
  abr: 'zdgqqv4iffo134dwxiqp49kj',
  asic: 'gl5v6vuvfsumi1otky8kg22z',
  gtin: 'npmh5jw6sjiiz03ctdzr4vu9',
  gln: 'zi1m7emkw9pzcblxljxpypo1',
  abn: 'shqxqjo4pvv591wxbspkavxp',
  acn: 'tx4medi4ya9lr0evwymsqt2h',
  lot: 'tinjv62n8rkw5pctwn1h908m',
  serial: 'b25tq7rk2jffjkv8g9cm3duj',
};

const example = JSON.parse(readFileSync(EXAMPLE, 'utf8'));
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'css-seed-'));
  // The example seed names its conformity scheme document by a path relative to the seed file.
  await copyFile(new URL('./conformity-scheme.example.json', import.meta.url).pathname, join(dir, 'conformity-scheme.example.json'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Writes a seed file (JSON value, or raw text) and returns its path. */
let files = 0;
const seedFile = async (content: unknown) => {
  const path = join(dir, `seed-${++files}.json`);
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};
const edited = (edit: (seed: any) => void) => {
  const copy = structuredClone(example);
  edit(copy);
  return copy;
};

const snapshot = async (db: Database) => ({
  registrars: await db.select().from(registrars).orderBy(asc(registrars.id)),
  schemes: await db.select().from(identifierSchemes).orderBy(asc(identifierSchemes.id)),
  qualifiers: await db.select().from(schemeQualifiers).orderBy(asc(schemeQualifiers.id)),
});

describe('prepareDatabase with SYSTEM_SEED_FILE', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  beforeAll(async () => {
    database = await createEmptyDatabase();
    handle = connectDatabase(database.url, { max: 2 });
  });
  afterAll(async () => {
    await handle.close();
    await database.drop();
  });
  const prepare = (file?: string) =>
    prepareDatabase({
      databaseUrl: database.url,
      dataEncryptionKey: TEST_ENCRYPTION_KEY,
      systemServices: readSystemServices({}),
      seedFile: file,
    });

  it('seeds nothing when the setting is unset', async () => {
    await prepare();
    expect(await snapshot(handle.db)).toEqual({ registrars: [], schemes: [], qualifiers: [] });
  });

  it('loads the example file: system registrars, schemes and qualifiers with their ids', async () => {
    await prepare(EXAMPLE);
    const { registrars: r, schemes: s, qualifiers: q } = await snapshot(handle.db);
    expect(r.map((x) => x.id).sort()).toEqual([IDS.gs1, IDS.abr, IDS.asic].sort());
    expect(s.map((x) => x.id).sort()).toEqual([IDS.gtin, IDS.gln, IDS.abn, IDS.acn].sort());
    expect([...r, ...s].every((x) => x.tenantId === SYSTEM_TENANT_ID)).toBe(true);
    expect(s.find((x) => x.id === IDS.gtin)).toMatchObject({
      registrarId: IDS.gs1,
      primaryKey: '01',
      validationPattern: '^\\d{14}$',
      linkTemplate: '/{primaryKey}/{value}',
      idrServiceInstanceId: null,
    });
    expect(s.find((x) => x.id === IDS.gln)).toMatchObject({ registrarId: IDS.gs1, primaryKey: '414', validationPattern: '^\\d{13}$' });
    expect(s.find((x) => x.id === IDS.abn)).toMatchObject({ registrarId: IDS.abr, validationPattern: '^\\d{11}$' });
    expect(s.find((x) => x.id === IDS.acn)).toMatchObject({ registrarId: IDS.asic, validationPattern: '^\\d{9}$' });
    expect(q.map(({ id, schemeId, key, validationPattern, order }) => ({ id, schemeId, key, validationPattern, order }))).toEqual(
      [
        { id: IDS.lot, schemeId: IDS.gtin, key: '10', validationPattern: '^[A-Za-z0-9]{1,20}$', order: 1 },
        { id: IDS.serial, schemeId: IDS.gtin, key: '21', validationPattern: '^[A-Za-z0-9]{1,20}$', order: 2 },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
  });

  it('is idempotent: a second boot with the same file changes nothing, not even updatedAt', async () => {
    const before = await snapshot(handle.db);
    await prepare(EXAMPLE);
    expect(await snapshot(handle.db)).toEqual(before);
  });

  it('upserts changed entries by id, replaces a scheme’s qualifiers, and leaves entries dropped from the file alone', async () => {
    const before = await snapshot(handle.db);
    const file = await seedFile(
      edited((seed) => {
        const gs1 = seed.registrars[0];
        gs1.name = 'GS1 Global Office';
        gs1.idrServiceInstanceId = SYSTEM_SERVICE_IDS.IDR;
        const gtin = gs1.identifierSchemes[0];
        gtin.validationPattern = '^\\d{8}(\\d{4,6})?$';
        // The lot qualifier keeps its id under a new key; a new id takes over key 10; serial is dropped.
        gtin.qualifiers = [
          { ...gtin.qualifiers[0], key: '10b', description: 'Renamed lot' },
          { id: 'newqualifier0000000000001', key: '10', description: 'Lot again', validationPattern: '.+', order: 3 },
        ];
        seed.registrars.splice(2, 1); // ASIC and its ACN scheme are no longer in the file
      }),
    );
    await prepare(file);
    const after = await snapshot(handle.db);
    const gs1 = after.registrars.find((x) => x.id === IDS.gs1)!;
    expect(gs1).toMatchObject({ name: 'GS1 Global Office', idrServiceInstanceId: SYSTEM_SERVICE_IDS.IDR });
    expect(gs1.updatedAt > before.registrars.find((x) => x.id === IDS.gs1)!.updatedAt).toBe(true);
    expect(after.schemes.find((x) => x.id === IDS.gtin)!.validationPattern).toBe('^\\d{8}(\\d{4,6})?$');
    expect(after.qualifiers.map(({ id, key, order }) => [id, key, order]).sort()).toEqual(
      [
        [IDS.lot, '10b', 1],
        ['newqualifier0000000000001', '10', 3],
      ].sort(),
    );
    // Dropped from the file: left as they were.
    expect(after.registrars.find((x) => x.id === IDS.asic)).toEqual(before.registrars.find((x) => x.id === IDS.asic));
    expect(after.schemes.find((x) => x.id === IDS.acn)).toEqual(before.schemes.find((x) => x.id === IDS.acn));
    // Untouched entries keep their timestamps.
    expect(after.schemes.find((x) => x.id === IDS.abn)).toEqual(before.schemes.find((x) => x.id === IDS.abn));
  });

  describe('a bad seed file fails with one line naming the path and the problem, and changes nothing', () => {
    beforeAll(async () => {
      await prepare(EXAMPLE);
      await handle.db.insert(tenants).values({ id: 'tenant-x', name: 'Tenant X' });
      const [own] = await handle.db
        .insert(registrars)
        .values({ id: 'tenant-registrar', tenantId: 'tenant-x', name: 'Own', namespace: 'own', url: 'https://own.example' })
        .returning();
      // A tenant's scheme under the system GS1 registrar holds primaryKey "8004".
      await handle.db.insert(identifierSchemes).values({
        tenantId: 'tenant-x',
        registrarId: IDS.gs1,
        name: 'GIAI',
        primaryKey: '8004',
        validationPattern: '.+',
        linkTemplate: '/{primaryKey}/{value}',
      });
      void own;
    });

    const gtinAt = 'registrars[0].identifierSchemes[0]';
    const cases: [string, unknown, string][] = [
      ['invalid JSON', '{"registrars": [', 'is not valid JSON ('],
      ['a top-level array', [], 'file: '],
      ['no registrars key', {}, 'registrars: '],
      ['an unknown key', edited((s) => (s.registrars[0].schemes = [])), 'registrars[0]: '],
      ['a whitespace-only name', edited((s) => (s.registrars[0].name = '  ')), 'registrars[0].name: must contain a non-whitespace character'],
      ['a padded url', edited((s) => (s.registrars[0].url = 'https://www.gs1.org ')), 'registrars[0].url: must not have leading'],
      ['a non-http url', edited((s) => (s.registrars[0].url = 'ftp://gs1.org')), 'registrars[0].url: must be an absolute http(s) URL'],
      ['a bad id', edited((s) => (s.registrars[0].id = 'has space')), 'registrars[0].id: must be 1 to 64 characters'],
      ['a pattern that does not compile', edited((s) => (s.registrars[0].identifierSchemes[0].validationPattern = '(')), `${gtinAt}.validationPattern: must be a valid regular expression`],
      ['a qualifier pattern that does not compile', edited((s) => (s.registrars[0].identifierSchemes[0].qualifiers[1].validationPattern = '[')), `${gtinAt}.qualifiers[1].validationPattern: must be a valid regular expression`],
      ['a repeated qualifier key', edited((s) => (s.registrars[0].identifierSchemes[0].qualifiers[1].key = '10')), `${gtinAt}.qualifiers[1].key: repeats the key of [0]`],
      ['a repeated primaryKey', edited((s) => (s.registrars[0].identifierSchemes[1].primaryKey = '01')), 'registrars[0].identifierSchemes[1].primaryKey: repeats the primaryKey of [0]'],
      ['a negative order', edited((s) => (s.registrars[0].identifierSchemes[0].qualifiers[0].order = -1)), `${gtinAt}.qualifiers[0].order: must not be negative`],
      ['a fractional order', edited((s) => (s.registrars[0].identifierSchemes[0].qualifiers[0].order = 1.5)), `${gtinAt}.qualifiers[0].order: must be an integer`],
      ['a repeated scheme id', edited((s) => (s.registrars[1].identifierSchemes[0].id = IDS.gtin)), `registrars[1].identifierSchemes[0].id: repeats the scheme id of ${gtinAt}.id`],
      ['a non-IDR service instance', edited((s) => (s.registrars[1].idrServiceInstanceId = SYSTEM_SERVICE_IDS.STORAGE)), `registrars[1].idrServiceInstanceId: "${SYSTEM_SERVICE_IDS.STORAGE}" is not a system IDR service instance`],
      ['the id of a tenant’s registrar', edited((s) => (s.registrars[2].id = 'tenant-registrar')), `registrars[2].id: "tenant-registrar" is already the id of a tenant's registrar`],
      ['a primaryKey a tenant’s scheme holds', edited((s) => (s.registrars[0].identifierSchemes[1].primaryKey = '8004')), 'registrars[0].identifierSchemes[1].primaryKey: "8004" is already used by another scheme of registrar'],
    ];

    it.each(cases)('%s', async (_, content, problem) => {
      const path = await seedFile(content);
      const before = await snapshot(handle.db);
      const error = await prepare(path).then(
        () => undefined,
        (e: unknown) => e as { message: string; code: string; name: string },
      );
      expect(error?.name).toBe('ConfigError');
      expect(error?.code).toBe('SYSTEM_SEED_INVALID');
      expect(error?.message).toContain(`SYSTEM_SEED_FILE ${path}: ${problem}`);
      expect(error?.message).not.toContain('\n');
      expect(await snapshot(handle.db)).toEqual(before);
    });

    it('a missing file', async () => {
      const path = join(dir, 'missing.json');
      await expect(prepare(path)).rejects.toMatchObject({
        message: `SYSTEM_SEED_FILE ${path}: cannot be read (ENOENT)`,
        code: 'SYSTEM_SEED_INVALID',
      });
    });
  });
});

/** Runs an entry script with the given settings; resolves with its exit code and output. */
const run = (script: string, env: Record<string, string>) => {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
};

describe('start-up reads SYSTEM_SEED_FILE', () => {
  const settings = (database: TestDatabase, file: string) => ({
    RI_APP_URL: 'http://127.0.0.1:3003',
    AUTH_OIDC_ISSUER: 'http://127.0.0.1:9',
    RI_DATABASE_URL: database.url,
    DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    PORT: '0',
    SYSTEM_SEED_FILE: file,
  });

  it('npm run db:migrate seeds from the file', async () => {
    const database = await createEmptyDatabase();
    try {
      const result = await run('core/start-up/migrate-cli.ts', settings(database, EXAMPLE));
      expect(result.code, result.stderr).toBe(0);
      const handle = connectDatabase(database.url, { max: 1 });
      try {
        expect((await handle.db.select().from(registrars)).map((r) => r.id).sort()).toEqual([IDS.gs1, IDS.abr, IDS.asic].sort());
      } finally {
        await handle.close();
      }
    } finally {
      await database.drop();
    }
  });

  it('the web process refuses to boot on a bad file with one line', async () => {
    const database = await createEmptyDatabase();
    try {
      const path = await seedFile(edited((s) => (s.registrars[0].identifierSchemes[0].validationPattern = '[')));
      const result = await run('functions/server.ts', settings(database, path));
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toBe(
        `Web boot failed: SYSTEM_SEED_FILE ${path}: registrars[0].identifierSchemes[0].validationPattern: must be a valid regular expression [SYSTEM_SEED_INVALID]`,
      );
    } finally {
      await database.drop();
    }
  });
});

describe('seeded defaults through the API', () => {
  let t: TestApp;
  let tokens: string[];
  beforeAll(async () => {
    t = await startTestApp();
    const seed = await readSystemSeedFile(EXAMPLE);
    // The step prepareDatabase runs at start-up, applied to this app's database.
    await t.db.transaction((tx) => applySystemSeed(tx, seed, (problem) => seedFileError(EXAMPLE, problem)));
    tokens = await Promise.all([t.token('tenantA'), t.token('tenantB')]);
  });
  afterAll(() => t.close());

  it('every tenant sees the registrars with nested schemes and ordered qualifiers', async () => {
    for (const token of tokens) {
      const gs1 = await t.call('GET', `/api/v1/registrars/${IDS.gs1}`, { token });
      expect(gs1.status).toBe(200);
      expect(gs1.body).toMatchObject({ name: 'GS1', namespace: 'gs1', isSystemDefault: true });
      expect(gs1.body.schemes.map((s: { primaryKey: string }) => s.primaryKey).sort()).toEqual(['01', '414']);
      const gtin = gs1.body.schemes.find((s: { id: string }) => s.id === IDS.gtin);
      expect(gtin.qualifiers.map((q: { key: string; order: number }) => [q.key, q.order])).toEqual([
        ['10', 1],
        ['21', 2],
      ]);
      const schemes = await t.call('GET', '/api/v1/schemes?limit=100', { token });
      expect(schemes.body.data.map((s: { id: string }) => s.id).sort()).toEqual([IDS.gtin, IDS.gln, IDS.abn, IDS.acn].sort());
      expect(schemes.body.data.every((s: { isSystemDefault: boolean }) => s.isSystemDefault)).toBe(true);
      const abn = await t.call('GET', `/api/v1/schemes/${IDS.abn}`, { token });
      expect(abn.body).toMatchObject({ primaryKey: 'abn', registrar: { id: IDS.abr, name: 'Australian Business Register' } });
    }
  });

  it('is read-only for every tenant (403) and stays as seeded', async () => {
    for (const token of tokens) {
      for (const [method, path, body] of [
        ['PATCH', `/api/v1/schemes/${IDS.gtin}`, { name: 'Mine' }],
        ['DELETE', `/api/v1/schemes/${IDS.gtin}`, undefined],
        ['PATCH', `/api/v1/registrars/${IDS.gs1}`, { name: 'Mine' }],
        ['DELETE', `/api/v1/registrars/${IDS.gs1}`, undefined],
      ] as const) {
        const res = await t.call(method, path, { token, body });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body.code).toBe('SYSTEM_DEFAULT_READ_ONLY');
      }
    }
    const [gtin] = await t.db.select().from(identifierSchemes).where(eq(identifierSchemes.id, IDS.gtin));
    expect(gtin!.name).toBe('Global Trade Item Number (GTIN)');
  });

  it('tenants create identifiers under the seeded schemes, checked against their patterns', async () => {
    const [token] = tokens;
    const ok = await t.call('POST', '/api/v1/identifiers', { token, body: { schemeId: IDS.gtin, value: '09520123456788' } });
    expect(ok.status).toBe(201);
    expect(ok.body.scheme.registrar.id).toBe(IDS.gs1);
    const gln = await t.call('POST', '/api/v1/identifiers', { token, body: { schemeId: IDS.gln, value: '09520123456788' } });
    expect(gln.status).toBe(400);
    const acn = await t.call('POST', '/api/v1/identifiers', { token, body: { schemeId: IDS.acn, value: '123456789' } });
    expect(acn.status).toBe(201);
  });
});
