import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../core/crypto/encoding.ts';
import { patternProblem } from '../../core/schemes/patterns.ts';
import { connectDatabase } from '../../db/client.ts';
import { eq, sql } from 'drizzle-orm';
import type { RunningWorker } from '../../consumers/worker.ts';
import { createLogger } from '../../core/logging/logger.ts';
import { browserSessions, credentialBatches, identifierSchemes, organisations, registrars, renderTemplates, serviceInstances, tenants, users } from '../../db/schema/index.ts';
import { bundleEdgeEntry } from '../../scripts/edge-bundle.ts';
import { csrfTokenIn } from '../rig/console-user.ts';
import { startIssuanceRig, systemServicesEnv, type IssuanceRig } from '../rig/credential-fixtures.ts';
import { startTestWorker } from '../rig/jobs.ts';
import { createTestDatabase, type TestDatabase } from '../rig/databases.ts';
import { DPP_070, renderTemplateBody, startRenderTemplateRig, type RenderTemplateRig } from '../rig/template-fixtures.ts';
import { TEST_APP_CLIENT, TEST_AUDIENCE, TEST_ENCRYPTION_KEY } from '../rig/test-settings.ts';
import { edgeBindings, startEdgeWorker, type EdgeWorker } from './edge-worker.ts';

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

/** Text as the console's pages write it (hono/jsx escapes these five). */
const escapeHtml = (text: string) => text.replace(/[&<>'"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#39;', '"': '&quot;' })[c]!);

/** A console session of a new person in `tenantId`, written as sign-in writes it; its cookie header. */
const openSession = async (databaseUrl: string, tenantId: string) => {
  const token = `edge-session-${crypto.randomUUID()}`;
  const connection = connectDatabase(databaseUrl, { max: 1 });
  const [user] = await connection.db.insert(users).values({ subject: `edge-person-${crypto.randomUUID()}`, tenantId }).returning();
  await connection.db.insert(browserSessions).values({ tokenHash: await sha256Hex(token), userId: user!.id, tenantId, expiresAt: new Date(Date.now() + 3_600_000), refreshedAt: new Date() });
  await connection.close();
  return `css_session=${token}`;
};

/**
 * The render-template pages from their own edge entry (`console-templates`, route `/console/templates*`), against
 * the Node test app's database and a storage service: a saved template is sanitised in the request and stored.
 */
describe('the console template pages as an edge function in workerd', () => {
  let edge: EdgeWorker;
  let mf: Miniflare;
  let rig: RenderTemplateRig;
  let templateId: string;
  let foreignId: string;
  const base = 'http://edge.test';
  let cookie: string;
  const post = (path: string, form: Record<string, string>) =>
    mf.dispatchFetch(`${base}${path}`, { method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });

  beforeAll(async () => {
    rig = await startRenderTemplateRig();
    const created = await rig.t.call('POST', '/api/v1/render-templates', { token: rig.token, body: renderTemplateBody({ name: 'Edge card' }) });
    expect(created.status).toBe(201);
    templateId = (created.body as { id: string }).id;
    const connection = connectDatabase(rig.t.databaseUrl, { max: 1 });
    const [storage] = await connection.db.select().from(serviceInstances).where(eq(serviceInstances.id, rig.storageId));
    cookie = await openSession(rig.t.databaseUrl, storage!.tenantId);
    const [foreign] = await connection.db.insert(tenants).values({ name: 'Foreign tenant' }).returning();
    const [theirs] = await connection.db
      .insert(renderTemplates)
      .values({ tenantId: foreign!.id, dataModelId: DPP_070, name: 'Foreign card', renderMethodType: 'RenderTemplate2024', storageObjectId: 'foreign', storageUrl: 'http://127.0.0.1:9/foreign.html', digestMultibase: 'zForeign' })
      .returning();
    foreignId = theirs!.id;
    await connection.close();
    edge = await startEdgeWorker({
      entry: 'functions/console-templates/edge.ts',
      name: 'console-templates',
      bindings: edgeBindings({ databaseUrl: rig.t.databaseUrl, url: base, idp: { issuer: rig.t.idp.issuer } }, {}),
      routes: ['edge.test/console/templates*'],
    });
    mf = edge.mf;
  }, 180_000);

  afterAll(async () => {
    await edge?.close();
    await rig?.close();
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

  it("saves an edit with the session's CSRF token (sanitised and stored) and refuses a forged one", async () => {
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

/**
 * The batch pages from their own edge entry (`console-batches`, route `/console/batches*`): an uploaded CSV is
 * parsed by papaparse in workerd (without Node's stream), and the batch is created with its jobs queued in SQL
 * for the Node worker, as the batch API does at the edge. Beside it, on the same rig and master data, the issue
 * pages from theirs (`console-issue`, route `/console/issue*`): issuance from the pickers in workerd, its JSON-LD
 * expansion, RE2 and QR encoder loaded on first use and its contexts from the bundled artefacts (their hosts are
 * offline here).
 */
describe('the console batch and issue pages as edge functions in workerd', () => {
  let edge: EdgeWorker;
  let issueEdge: EdgeWorker;
  let mf: Miniflare;
  let rig: IssuanceRig;
  let worker: RunningWorker;
  let token: string;
  let data: { organisation: { id: string }; facility: { id: string }; product: { id: string }; did: { id: string } };
  let foreignProductId: string;
  let cookie: string;
  const base = 'http://edge.test';

  const api = async (method: string, path: string, body?: unknown, expected = 201) => {
    const res = await rig.t.call(method, `/api/v1${path}`, { token, body });
    expect(res.status, `${method} ${path}`).toBe(expected);
    return res.body as { id: string } & Record<string, unknown>;
  };
  /** The session's CSRF token, from a page of the edge entry. */
  const csrfToken = async () => csrfTokenIn(await (await mf.dispatchFetch(`${base}/console/batches/new`, { headers: { cookie } })).text())!;

  const upload = async (text: string, csrf: string) => {
    const form = new FormData();
    form.set('_csrf', csrf);
    form.set('dataModelId', DPP_070);
    form.set('issuerDid', data.did.id);
    form.set('idempotencyKey', crypto.randomUUID());
    form.set('file', new File([text], 'items.csv', { type: 'text/csv' }));
    // Encoded as a browser would (multipart), then sent through workerd.
    const encoded = new Response(form);
    const headers = { cookie, 'content-type': encoded.headers.get('content-type')! };
    const res = await mf.dispatchFetch(`${base}/console/batches`, { method: 'POST', redirect: 'manual', headers, body: await encoded.arrayBuffer() });
    return { status: res.status, location: res.headers.get('location'), html: await res.text() };
  };
  const batchCount = async () => {
    const connection = connectDatabase(rig.t.databaseUrl, { max: 1 });
    const rows = await connection.db.select({ id: credentialBatches.id }).from(credentialBatches);
    await connection.close();
    return rows.length;
  };
  const csv = (rows: string[][]) => ['reference,organisation,facility,product,countryOfProduction', ...rows.map((r) => r.join(','))].join('\n');

  beforeAll(async () => {
    rig = await startIssuanceRig();
    token = await rig.t.token('tenantA');
    const registrar = await api('POST', '/registrars', { name: 'GS1', namespace: 'gs1', url: 'https://id.gs1.example' });
    const scheme = await api('POST', '/schemes', { registrarId: registrar.id, name: 'GTIN', primaryKey: '01', validationPattern: '^\\d{14}$', linkTemplate: '/{primaryKey}/{value}' });
    const gtin = await api('POST', '/identifiers', { schemeId: scheme.id, value: '09520123456788' });
    const [organisation] = (await api('POST', '/organisations', [{ name: 'Edge Batteries' }])) as unknown as { id: string }[];
    const [facility] = (await api('POST', '/facilities', [{ name: 'Edge Plant', operatingOrganisationId: organisation!.id }])) as unknown as { id: string }[];
    const [product] = (await api('POST', '/products', [{ name: 'Edge Cell', level: 'MODEL', producedByOrganisationId: organisation!.id, manufacturingFacilityId: facility!.id, primaryIdentifierId: gtin.id }])) as unknown as { id: string }[];
    const did = await api('POST', '/dids', { type: 'MANAGED', method: 'DID_WEB', alias: `edge-${crypto.randomUUID().slice(0, 8)}` });
    data = { organisation: organisation!, facility: facility!, product: product!, did };
    const foreign = await rig.t.call('POST', '/api/v1/products', { token: await rig.t.token('tenantB'), body: [{ name: 'Foreign Cell', level: 'MODEL' }] });
    expect(foreign.status, foreign.text).toBe(201);
    foreignProductId = (foreign.body as { id: string }[])[0]!.id;
    cookie = await openSession(rig.t.databaseUrl, await rig.t.tenantOf('tenantA'));
    // The worker installs pg-boss's schema and the queues, as it does in production before any edge enqueue.
    // Its start-up seeds the system service instances from its settings: the rig's VC and storage services.
    worker = await startTestWorker(rig.t.databaseUrl, [], createLogger('error'), systemServicesEnv(rig));
    [edge, issueEdge] = await Promise.all([
      startEdgeWorker({
        entry: 'functions/console-batches/edge.ts',
        name: 'console-batches',
        bindings: edgeBindings({ databaseUrl: rig.t.databaseUrl, url: base, idp: { issuer: rig.t.idp.issuer } }, { FETCH_ALLOW_PRIVATE_URLS: 'false' }),
        routes: ['edge.test/console/batches*'],
      }),
      // Issuance reaches the VC and storage services on loopback, as the API's issuance entry does in its test.
      startEdgeWorker({ entry: 'functions/console-issue/edge.ts', name: 'console-issue', bindings: edgeBindings(rig.t), routes: ['edge.test/console/issue*'] }),
    ]);
    mf = edge.mf;
  }, 180_000);

  afterAll(async () => {
    await edge?.close();
    await issueEdge?.close();
    await worker?.stop();
    await rig?.close();
  });

  it('creates a batch from an uploaded CSV, one item per row, its job queued for the worker, and shows it', async () => {
    const rows = [1, 2].map((i) => [`row-${i}`, data.organisation.id, data.facility.id, data.product.id, 'AU']);
    const submitted = await upload(csv(rows), await csrfToken());
    expect(submitted.status, submitted.html).toBe(303);
    const batchId = submitted.location!.match(/^\/console\/batches\/([^/?]+)$/)![1]!;
    const batch = await api('GET', `/credentials/batches/${batchId}`, undefined, 200);
    expect(batch).toMatchObject({ id: batchId, state: 'QUEUED', counts: { total: 2 } });
    // Its first job queued by plain SQL in the same transaction, as pg-boss sees it.
    const [job] = await rig.t.db.execute<{ id: string }>(sql`select id from pgboss.job where data->>'batchId' = ${batchId}`);
    expect(await worker.boss.getJobById('credentials.issue-batch', job!.id)).toMatchObject({ data: { batchId } });
    const page = await mf.dispatchFetch(`${base}${submitted.location}`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<h1[^>]*>Batch<\/h1>/);
  });

  it('refuses an upload with a forged CSRF token, and a bad row naming the row and field, creating nothing', async () => {
    const before = await batchCount();
    const good = csv([['row-1', data.organisation.id, data.facility.id, data.product.id, 'AU']]);
    expect((await upload(good, '0'.repeat(64))).status).toBe(403);
    const bad = await upload(csv([['row-1', data.organisation.id, data.facility.id, data.product.id, 'Australia']]), await csrfToken());
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('row 1: countryOfProduction: must be a two-letter ISO 3166 country code');
    const unparsable = await upload('reference,organisation\n"row-1,x', await csrfToken());
    expect(unparsable.status).toBe(400);
    expect(unparsable.html).toMatch(/row \d+: /);
    expect(await batchCount()).toBe(before);
  });

  /** A form posted to the issue entry, as a browser posts it. */
  const postIssue = (path: string, form: Record<string, string>) =>
    issueEdge.mf.dispatchFetch(`${base}${path}`, { method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });
  const issueChoices = () => ({ dataModelId: DPP_070, organisation: data.organisation.id, facility: data.facility.id, product: data.product.id, countryOfProduction: 'au', issuerDid: data.did.id, encrypt: 'true' });
  const credentialCount = async () => ((await api('GET', '/credentials?limit=100', undefined, 200)) as unknown as { data: unknown[] }).data.length;

  it('issues a product passport from the pickers: the form, the preview, the result page with its QR code; Node reads the credential', async () => {
    const form = await issueEdge.mf.dispatchFetch(`${base}/console/issue?dataModelId=${DPP_070}`, { headers: { cookie } });
    expect(form.status).toBe(200);
    const formHtml = await form.text();
    expect(formHtml).toContain('Edge Cell (model)');
    const csrf = csrfTokenIn(formHtml)!;
    const preview = await postIssue('/console/issue/preview', { ...issueChoices(), _csrf: csrf });
    const previewHtml = await preview.text();
    expect(preview.status, previewHtml).toBe(200);
    expect(previewHtml).toContain('https://id.gs1.example/01/09520123456788');
    const key = previewHtml.match(/name="idempotencyKey" value="([0-9a-f-]{36})"/)![1]!;
    const issued = await postIssue('/console/issue', { ...issueChoices(), idempotencyKey: key, _csrf: csrf });
    const html = await issued.text();
    expect(issued.status, html).toBe(201);
    expect(html).toContain('Credential issued');
    expect(html).toMatch(/<svg[^>]*aria-label="QR code"/);
    const decryptionKey = html.match(/id="decryption-key">([0-9a-f]{64})</)![1];
    const id = html.match(/href="\/console\/credentials\/([^"]+)"/)![1]!;
    const record = await api('GET', `/credentials/${id}`, undefined, 200);
    expect(record).toMatchObject({ credentialType: 'DigitalProductPassport', version: '0.7.0', encrypted: true, decryptionKey, productId: data.product.id });
  });

  it("refuses an issue form without the CSRF token, and answers 404 for another tenant's product, issuing nothing", async () => {
    const before = await credentialCount();
    const csrf = csrfTokenIn(await (await issueEdge.mf.dispatchFetch(`${base}/console/issue?dataModelId=${DPP_070}`, { headers: { cookie } })).text())!;
    const key = crypto.randomUUID();
    expect((await postIssue('/console/issue', { ...issueChoices(), idempotencyKey: key })).status).toBe(403);
    const foreign = await postIssue('/console/issue', { ...issueChoices(), product: foreignProductId, idempotencyKey: key, _csrf: csrf });
    expect(foreign.status).toBe(404);
    expect(await foreign.text()).not.toContain('Foreign Cell');
    expect(await credentialCount()).toBe(before);
  });
});

/**
 * The identifier, scheme and registrar pages from their own edge entry (`console-registry`, routes
 * `/console/identifiers*`, `/console/schemes*`, `/console/registrars*`): a scheme's pattern is checked on RE2 in
 * workerd, with the same verdicts as on Node.
 */
describe('the console identifier, scheme and registrar pages as an edge function in workerd', () => {
  let edge: EdgeWorker;
  let mf: Miniflare;
  let database: TestDatabase;
  let cookie: string;
  let registrarId: string;
  let foreign: { registrarId: string; schemeId: string };
  const base = 'http://edge.test';
  const get = (path: string) => mf.dispatchFetch(`${base}${path}`, { headers: { cookie } });
  const post = (path: string, form: Record<string, string>) =>
    mf.dispatchFetch(`${base}${path}`, { method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });
  const csrfFrom = async (path: string) => csrfTokenIn(await (await get(path)).text())!;
  const scheme = { name: 'Edge GTIN', primaryKey: '01', validationPattern: '^\\d{14}$', linkTemplate: '/{primaryKey}/{value}' };

  beforeAll(async () => {
    database = await createTestDatabase();
    const connection = connectDatabase(database.url, { max: 1 });
    const [ours, theirs] = await connection.db.insert(tenants).values([{ name: 'Registry tenant' }, { name: 'Foreign registry tenant' }]).returning();
    const [registrar] = await connection.db.insert(registrars).values({ tenantId: ours!.id, name: 'Edge Registrar', namespace: 'edge', url: 'https://id.edge.test' }).returning();
    registrarId = registrar!.id;
    const [foreignRegistrar] = await connection.db.insert(registrars).values({ tenantId: theirs!.id, name: 'Foreign Registrar', namespace: 'foreign', url: 'https://id.foreign.test' }).returning();
    const [foreignScheme] = await connection.db.insert(identifierSchemes).values({ tenantId: theirs!.id, registrarId: foreignRegistrar!.id, ...scheme, name: 'Foreign GTIN' }).returning();
    foreign = { registrarId: foreignRegistrar!.id, schemeId: foreignScheme!.id };
    await connection.close();
    cookie = await openSession(database.url, ours!.id);
    // Discovery is never reached: the console's session check reads the database only.
    edge = await startEdgeWorker({
      entry: 'functions/console-registry/edge.ts',
      name: 'console-registry',
      bindings: edgeBindings({ databaseUrl: database.url, url: base, idp: { issuer: 'http://127.0.0.1:9/idp' } }, {}),
      routes: ['edge.test/console/identifiers*', 'edge.test/console/schemes*', 'edge.test/console/registrars*'],
    });
    mf = edge.mf;
  }, 120_000);

  afterAll(async () => {
    await edge?.close();
    await database?.drop();
  });

  it("lists the tenant's registrars, not another tenant's, serves all three page groups, and sends a visit without a session to sign in", async () => {
    const res = await get('/console/registrars');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<h1[^>]*>Registrars<\/h1>/);
    expect(html).toContain(`href="/console/registrars/${registrarId}"`);
    expect(html).not.toContain(foreign.registrarId);
    expect(html).not.toContain('Foreign Registrar');
    const schemes = await get('/console/schemes');
    expect(schemes.status).toBe(200);
    expect(await schemes.text()).not.toContain('Foreign GTIN');
    expect((await get('/console/identifiers')).status).toBe(200);
    const anonymous = await mf.dispatchFetch(`${base}/console/schemes`, { redirect: 'manual' });
    expect(anonymous.status).toBe(303);
  });

  it("creates a scheme with the session's CSRF token, names the field of a bad RE2 pattern, refuses a forged token, and checks values on RE2", async () => {
    const csrf = await csrfFrom('/console/schemes/new');
    const form = { registrarId, ...scheme, _csrf: csrf };
    expect((await post('/console/schemes/new', { ...form, _csrf: '0'.repeat(64) })).status).toBe(403);
    // A lookbehind is JavaScript RegExp syntax RE2 refuses: the verdict is RE2's (loaded on first use in workerd),
    // message for message as on Node.
    for (const validationPattern of ['([', '(?<=a)b']) {
      const bad = await post('/console/schemes/new', { ...form, validationPattern });
      expect(bad.status, validationPattern).toBe(400);
      const onNode = escapeHtml((await patternProblem(validationPattern))!);
      expect(await bad.text(), validationPattern).toContain(`id="validationPattern-error">${onNode}<`);
    }
    const made = await post('/console/schemes/new', form);
    expect(made.status, await made.clone().text()).toBe(303);
    expect(made.headers.get('location')).toBe('/console/schemes?saved=1');
    const connection = connectDatabase(database.url, { max: 1 });
    const rows = await connection.db.select().from(identifierSchemes).where(eq(identifierSchemes.registrarId, registrarId));
    await connection.close();
    expect(rows.map((r) => ({ name: r.name, validationPattern: r.validationPattern }))).toEqual([{ name: scheme.name, validationPattern: scheme.validationPattern }]);
    const badValue = await post('/console/identifiers/new', { schemeId: rows[0]!.id, value: 'abc', _csrf: csrf });
    expect(badValue.status).toBe(400);
    expect(await badValue.text()).toContain('id="value-error">must match the scheme');
    expect((await post('/console/identifiers/new', { schemeId: rows[0]!.id, value: '09520123456788', _csrf: csrf })).status).toBe(303);
    expect(await (await get('/console/identifiers')).text()).toContain('09520123456788');
  });

  it("answers 404 for another tenant's registrar or scheme, to read or to save, and leaves it as it was", async () => {
    const csrf = await csrfFrom('/console/registrars/new');
    expect((await get(`/console/registrars/${foreign.registrarId}`)).status).toBe(404);
    expect((await get(`/console/schemes/${foreign.schemeId}`)).status).toBe(404);
    expect((await post(`/console/registrars/${foreign.registrarId}`, { name: 'Taken', namespace: 'taken', url: 'https://taken.test', _csrf: csrf })).status).toBe(404);
    expect((await post(`/console/schemes/${foreign.schemeId}`, { ...scheme, name: 'Taken', _csrf: csrf })).status).toBe(404);
    const connection = connectDatabase(database.url, { max: 1 });
    const [theirs] = await connection.db.select().from(registrars).where(eq(registrars.id, foreign.registrarId));
    const [theirScheme] = await connection.db.select().from(identifierSchemes).where(eq(identifierSchemes.id, foreign.schemeId));
    await connection.close();
    expect([theirs!.name, theirScheme!.name]).toEqual(['Foreign Registrar', 'Foreign GTIN']);
  });
});
