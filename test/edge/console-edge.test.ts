import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../core/crypto/encoding.ts';
import { connectDatabase } from '../../db/client.ts';
import { eq } from 'drizzle-orm';
import { browserSessions, organisations, renderTemplates, serviceInstances, tenants, users } from '../../db/schema/index.ts';
import { bundleEdgeEntry } from '../../scripts/edge-bundle.ts';
import { csrfTokenIn } from '../rig/console-user.ts';
import { createTestDatabase, type TestDatabase } from '../rig/databases.ts';
import { DPP_070, renderTemplateBody, startRenderTemplateRig, type RenderTemplateRig } from '../rig/template-fixtures.ts';
import { TEST_APP_CLIENT, TEST_AUDIENCE, TEST_ENCRYPTION_KEY } from '../rig/test-settings.ts';

/**
 * The console bundled as edge functions and run in workerd: its assets come from the bundle (no file
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
      const html = await res.text();
      expect(html).toMatch(new RegExp(`<h1[^>]*>${heading}</h1>`));
      // The page links the console entry's assets by their paths alone (the texts stay in the console entry).
      const htmx = await mf.dispatchFetch(`${base}${html.match(/src="(\/console\/assets\/htmx-[a-z0-9]+\.js)"/)![1]!}`);
      expect(htmx.status, path).toBe(200);
      const anonymous = await mf.dispatchFetch(`${base}${path}`, { redirect: 'manual' });
      expect(anonymous.status).toBe(303);
    }
  });
});

/**
 * The render-template pages from their own edge entry (`console-templates`, route `/console/templates*`), against
 * the Node test app's database and a storage service: a saved template is sanitised in the request and stored.
 */
describe('the console template pages as an edge function in workerd', () => {
  let dir: string;
  let mf: Miniflare;
  let rig: RenderTemplateRig;
  let templateId: string;
  let foreignId: string;
  const base = 'http://edge.test';
  const session = 'edge-console-templates-session';
  const cookie = `css_session=${session}`;
  const post = (path: string, form: Record<string, string>) =>
    mf.dispatchFetch(`${base}${path}`, { method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'css-edge-console-templates-'));
    await bundleEdgeEntry('functions/console-templates/edge.ts', join(dir, 'console-templates.js'));
    rig = await startRenderTemplateRig();
    const created = await rig.t.call('POST', '/api/v1/render-templates', { token: rig.token, body: renderTemplateBody({ name: 'Edge card' }) });
    expect(created.status).toBe(201);
    templateId = (created.body as { id: string }).id;
    const connection = connectDatabase(rig.t.databaseUrl, { max: 1 });
    const [storage] = await connection.db.select().from(serviceInstances).where(eq(serviceInstances.id, rig.storageId));
    const [user] = await connection.db.insert(users).values({ subject: 'edge-template-person', tenantId: storage!.tenantId }).returning();
    await connection.db.insert(browserSessions).values({
      tokenHash: await sha256Hex(session),
      userId: user!.id,
      tenantId: storage!.tenantId,
      expiresAt: new Date(Date.now() + 3_600_000),
      refreshedAt: new Date(),
    });
    const [foreign] = await connection.db.insert(tenants).values({ name: 'Foreign tenant' }).returning();
    const [theirs] = await connection.db
      .insert(renderTemplates)
      .values({ tenantId: foreign!.id, dataModelId: DPP_070, name: 'Foreign card', renderMethodType: 'RenderTemplate2024', storageObjectId: 'foreign', storageUrl: 'http://127.0.0.1:9/foreign.html', digestMultibase: 'zForeign' })
      .returning();
    foreignId = theirs!.id;
    await connection.close();
    mf = new Miniflare({
      name: 'console-templates',
      modules: true,
      modulesRoot: dir,
      scriptPath: join(dir, 'console-templates.js'),
      compatibilityDate: '2026-07-01',
      compatibilityFlags: ['nodejs_compat'],
      routes: ['edge.test/console/templates*'],
      bindings: {
        RI_DATABASE_URL: rig.t.databaseUrl,
        RI_APP_URL: base,
        DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        AUTH_OIDC_ISSUER: rig.t.idp.issuer,
        AUTH_OIDC_CLIENT_ID: TEST_APP_CLIENT.clientId,
        AUTH_OIDC_SERVICE_ACCOUNT_AUDIENCE: TEST_AUDIENCE,
        FETCH_ALLOW_PRIVATE_URLS: 'true',
        LOG_LEVEL: 'error',
      },
    });
    await mf.ready;
  }, 180_000);

  afterAll(async () => {
    await mf?.dispose();
    await rig?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("lists the tenant's templates, not another tenant's, and sends a visit without a session to sign in", async () => {
    const res = await mf.dispatchFetch(`${base}/console/templates`, { headers: { cookie } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<h1[^>]*>Render templates<\/h1>/);
    expect(html).toContain(`href="/console/templates/${templateId}"`);
    expect(html).not.toContain(foreignId);
    const anonymous = await mf.dispatchFetch(`${base}/console/templates`, { redirect: 'manual' });
    expect(anonymous.status).toBe(303);
  });

  it("saves an edit with the session's CSRF token (sanitised and stored) and refuses one without it", async () => {
    const page = await mf.dispatchFetch(`${base}/console/templates/${templateId}`, { headers: { cookie } });
    expect(page.status).toBe(200);
    const csrf = csrfTokenIn(await page.text())!;
    const edit = { name: 'Edge card, edited', template: '<h2>{{issuer.name}}</h2><script>alert(1)</script>' };
    const forged = await post(`/console/templates/${templateId}`, { ...edit, _csrf: '0'.repeat(64) });
    expect(forged.status).toBe(403);
    const saved = await post(`/console/templates/${templateId}`, { ...edit, _csrf: csrf });
    expect(saved.status, await saved.clone().text()).toBe(303);
    expect(saved.headers.get('location')).toBe(`/console/templates/${templateId}`);
    const after = await rig.t.call('GET', `/api/v1/render-templates/${templateId}`, { token: rig.token });
    const body = after.body as { name: string; storageUrl: string; storageServiceInstanceId: string };
    expect(body).toMatchObject({ name: 'Edge card, edited', storageServiceInstanceId: rig.storageId });
    const stored = await (await fetch(body.storageUrl)).text();
    expect(stored).toContain('<h2>{{issuer.name}}</h2>');
    expect(stored).not.toContain('<script');
  });

  it("answers 404 for another tenant's template, to read or to save", async () => {
    const page = await mf.dispatchFetch(`${base}/console/templates/${templateId}`, { headers: { cookie } });
    const csrf = csrfTokenIn(await page.text())!;
    expect((await mf.dispatchFetch(`${base}/console/templates/${foreignId}`, { headers: { cookie } })).status).toBe(404);
    expect((await post(`/console/templates/${foreignId}`, { name: 'Taken', template: '<p>x</p>', _csrf: csrf })).status).toBe(404);
    const connection = connectDatabase(rig.t.databaseUrl, { max: 1 });
    const [theirs] = await connection.db.select().from(renderTemplates).where(eq(renderTemplates.id, foreignId));
    await connection.close();
    expect(theirs!.name).toBe('Foreign card');
  });
});
