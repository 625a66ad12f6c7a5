import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dids } from '../../db/schema/index.ts';
import { SYSTEM_TENANT_ID } from '../../db/system-tenant.ts';
import { connectDatabase } from '../../db/client.ts';
import { startVcService, type VcService } from '../../vc-service/test/vc-harness.ts';
import { createEmptyDatabase } from '../../test/rig/databases.ts';
import { pointVcInstance, unreachableVc, useVcServiceAsSystemVc, vcAdapterOf } from '../../test/rig/did-fixtures.ts';
import { SYSTEM_SERVICE_IDS } from '../../test/rig/fixtures.ts';
import { freePort } from '../../test/rig/postgres-server.ts';
import { runProgram } from '../../test/rig/program.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';
import { TEST_ENCRYPTION_KEY } from '../../test/rig/test-settings.ts';
import { createLogger } from '../logging/logger.ts';
import { ensureDefaultDid, ensureDefaultDidAtStartUp, readDefaultDidAlias } from './default-did.ts';

let t: TestApp;
let vc: VcService;
const lines: string[] = [];
const deps = () => ({ db: t.db, box: t.services.secretBox, fetcher: t.services.fetcher, logger: createLogger('info', (l) => lines.push(l)) });
const defaults = () => t.db.select().from(dids).where(eq(dids.type, 'DEFAULT'));
const heldCount = async () => (await vcAdapterOf(vc).listDids()).length;

beforeAll(async () => {
  t = await startTestApp({ env: { FETCH_ALLOW_PRIVATE_URLS: 'true' } });
  vc = await useVcServiceAsSystemVc(t);
});
afterAll(async () => {
  await t.close();
  await vc.stop();
});

describe('SYSTEM_DEFAULT_DID_ALIAS', () => {
  it('defaults to "default" and keeps only letters, digits and hyphens', () => {
    expect(readDefaultDidAlias({})).toBe('default');
    expect(readDefaultDidAlias({ SYSTEM_DEFAULT_DID_ALIAS: '  ' })).toBe('default');
    expect(readDefaultDidAlias({ SYSTEM_DEFAULT_DID_ALIAS: 'Acme Org_1!' })).toBe('AcmeOrg1');
    expect(() => readDefaultDidAlias({ SYSTEM_DEFAULT_DID_ALIAS: '!!!' })).toThrow(/SYSTEM_DEFAULT_DID_ALIAS/);
  });
});

describe('the DEFAULT DID at start-up', () => {
  it('a VC service that is down leaves a warning, no record, and no failure; the next start creates it', async () => {
    await pointVcInstance(t, SYSTEM_SERVICE_IDS.VC, await unreachableVc());
    await ensureDefaultDidAtStartUp(deps(), {});
    expect(await defaults()).toEqual([]);
    expect(lines.map((l) => JSON.parse(l)).find((l) => l.level === 'warn')).toMatchObject({ message: expect.stringContaining('System default DID not ensured') });
    await pointVcInstance(t, SYSTEM_SERVICE_IDS.VC, vc);
    await ensureDefaultDidAtStartUp(deps(), {});
    const [row] = await defaults();
    expect(row).toMatchObject({ tenantId: SYSTEM_TENANT_ID, type: 'DEFAULT', status: 'ACTIVE', alias: 'default', isDefault: false });
    expect(row!.did).toBe(`did:web:${new URL(vc.url).host.replace(':', '%3A')}:default`);
    expect(await vcAdapterOf(vc).getDid(row!.did)).toBeDefined();
  });

  it('is idempotent: repeats create nothing new, upstream or locally', async () => {
    const before = await heldCount();
    const did = await ensureDefaultDid(deps(), 'default');
    await ensureDefaultDid(deps(), 'default');
    expect(await heldCount()).toBe(before);
    expect((await defaults()).map((d) => d.did)).toEqual([did]);
  });

  it('an alias change replaces the one DEFAULT record', async () => {
    const did = await ensureDefaultDid(deps(), 'renamed');
    expect((await defaults()).map((d) => d.did)).toEqual([did]);
    expect(did.endsWith(':renamed')).toBe(true);
  });

  it('the web process ensures it at start-up, and boots while the VC service is down', async () => {
    const database = await createEmptyDatabase();
    const live = await startVcService();
    const env = (vcUrl: string, port: number) => ({
      PORT: String(port),
      HOST: '127.0.0.1',
      RI_APP_URL: 'http://127.0.0.1:3003',
      AUTH_OIDC_ISSUER: 'http://127.0.0.1:9',
      RI_DATABASE_URL: database.url,
      DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      SYSTEM_VC_BASE_URL: vcUrl,
      SYSTEM_VC_API_KEY: live.apiKey,
      SYSTEM_DEFAULT_DID_ALIAS: 'boot',
      FETCH_ALLOW_PRIVATE_URLS: 'true',
      LOG_LEVEL: 'error',
    });
    const { db, close } = connectDatabase(database.url, { max: 1 });
    try {
      const downPort = await freePort();
      const down = runProgram('functions/server.ts', env(`http://127.0.0.1:${await freePort()}`, downPort));
      try {
        let health = 0;
        for (let i = 0; health !== 200; i++) {
          if (i > 600 || down.child.exitCode !== null) throw new Error(`the web process did not boot: ${down.output().stderr}`);
          await new Promise((done) => setTimeout(done, 50));
          health = await fetch(`http://127.0.0.1:${downPort}/api/health`).then((r) => r.status, () => 0);
        }
      } finally {
        down.child.kill('SIGTERM');
        await down.exited;
      }
      const web = runProgram('functions/server.ts', env(live.url, await freePort()));
      try {
        for (let i = 0; (await db.select().from(dids).where(eq(dids.type, 'DEFAULT'))).length === 0; i++) {
          if (i > 600 || web.child.exitCode !== null) throw new Error(`no DEFAULT DID: ${web.output().stderr}`);
          await new Promise((done) => setTimeout(done, 50));
        }
      } finally {
        web.child.kill('SIGTERM');
        await web.exited;
      }
      const [row] = await db.select().from(dids).where(eq(dids.type, 'DEFAULT'));
      expect(row).toMatchObject({ did: `did:web:${new URL(live.url).host.replace(':', '%3A')}:boot`, tenantId: SYSTEM_TENANT_ID, status: 'ACTIVE' });
    } finally {
      await close();
      await live.stop();
      await database.drop();
    }
  }, 90_000);
});
