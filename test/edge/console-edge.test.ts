import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../core/crypto/encoding.ts';
import { connectDatabase } from '../../db/client.ts';
import { browserSessions, organisations, tenants, users } from '../../db/schema/index.ts';
import { bundleEdgeEntry } from '../../scripts/edge-bundle.ts';
import { createTestDatabase, type TestDatabase } from '../rig/databases.ts';
import { TEST_APP_CLIENT, TEST_AUDIENCE, TEST_ENCRYPTION_KEY } from '../rig/test-settings.ts';

/**
 * The console bundled as an edge function and run in workerd: its assets come from the bundle (no file
 * system there), an unauthenticated visit goes to sign-in, and a session cookie opens a page with its CSP.
 */
/** The console's edge entries: its own pages, the DID pages and the library pages (each within the bundle budget). */
const GROUPS = ['console', 'console-dids', 'console-library'];

describe('the console as edge functions in workerd', () => {
  let dir: string;
  let mf: Miniflare;
  let database: TestDatabase;
  const base = 'http://edge.test';
  const session = 'edge-console-session-token';
  let organisationId: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'css-edge-console-'));
    for (const group of GROUPS) await bundleEdgeEntry(`functions/${group}/edge.ts`, join(dir, `${group}.js`));
    database = await createTestDatabase();
    const connection = connectDatabase(database.url, { max: 1 });
    const [tenant] = await connection.db.insert(tenants).values({ name: 'Edge tenant' }).returning();
    const [user] = await connection.db.insert(users).values({ subject: 'edge-person', tenantId: tenant!.id }).returning();
    await connection.db.insert(browserSessions).values({
      tokenHash: await sha256Hex(session),
      userId: user!.id,
      tenantId: tenant!.id,
      expiresAt: new Date(Date.now() + 3_600_000),
      refreshedAt: new Date(),
    });
    const [organisation] = await connection.db.insert(organisations).values({ tenantId: tenant!.id, name: 'Edge <Org>' }).returning();
    organisationId = organisation!.id;
    await connection.close();
    const bindings = {
      RI_DATABASE_URL: database.url,
      RI_APP_URL: base,
      DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      // Discovery is never reached: the console's session check reads the database only.
      AUTH_OIDC_ISSUER: 'http://127.0.0.1:9/idp',
      AUTH_OIDC_CLIENT_ID: TEST_APP_CLIENT.clientId,
      AUTH_OIDC_SERVICE_ACCOUNT_AUDIENCE: TEST_AUDIENCE,
      LOG_LEVEL: 'error',
    };
    // Each console entry behind its wrangler.toml route; the more specific routes win, as on Cloudflare.
    mf = new Miniflare({
      workers: GROUPS.map((group) => ({
        name: group,
        modules: true,
        modulesRoot: dir,
        scriptPath: join(dir, `${group}.js`),
        compatibilityDate: '2026-07-01',
        compatibilityFlags: ['nodejs_compat'],
        routes: [group === 'console' ? 'edge.test/console*' : `edge.test/console/${group.replace('console-', '')}*`],
        bindings,
      })),
    });
    await mf.ready;
  }, 120_000);

  afterAll(async () => {
    await mf?.dispose();
    await database?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('sends a visit without a session to sign in and back', async () => {
    const res = await mf.dispatchFetch(`${base}/console/products`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/auth/login?returnTo=${encodeURIComponent('/console/products')}`);
  });

  it('renders a page for a session, with its nonce, and serves htmx from the bundle', async () => {
    const res = await mf.dispatchFetch(`${base}/console`, { headers: { cookie: `css_session=${session}` } });
    expect(res.status).toBe(200);
    const html = await res.text();
    const nonce = res.headers.get('content-security-policy')?.match(/'nonce-([^']+)'/)?.[1];
    expect(html).toContain(`nonce="${nonce}"`);
    const src = html.match(/src="(\/console\/assets\/htmx-[a-z0-9]+\.js)"/)![1]!;
    const script = await mf.dispatchFetch(`${base}${src}`);
    expect(script.status).toBe(200);
    expect(await script.text()).toContain('htmx');
  });

  it('opens a master record through the relational graph its edge entry names', async () => {
    const res = await mf.dispatchFetch(`${base}/console/organisations/${organisationId}`, { headers: { cookie: `css_session=${session}` } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('value="Edge &lt;Org&gt;"');
  });

  it('serves the DID pages and the library pages from their own entries (the console entry has neither), behind the more specific routes', async () => {
    for (const [path, heading] of [['/console/dids', 'DIDs'], ['/console/library', 'Library']] as const) {
      const res = await mf.dispatchFetch(`${base}${path}`, { headers: { cookie: `css_session=${session}` } });
      expect(res.status, path).toBe(200);
      expect(await res.text()).toMatch(new RegExp(`<h1[^>]*>${heading}</h1>`));
      const anonymous = await mf.dispatchFetch(`${base}${path}`, { redirect: 'manual' });
      expect(anonymous.status).toBe(303);
    }
  });
});
