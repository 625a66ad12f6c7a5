import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleEdgeEntry } from '../../scripts/edge-bundle.ts';
import { DPP_070, renderTemplateBody, startRenderTemplateRig, type RenderTemplateRig } from '../rig/template-fixtures.ts';
import { TEST_APP_CLIENT, TEST_AUDIENCE, TEST_ENCRYPTION_KEY } from '../rig/test-settings.ts';

/**
 * Data models and render templates bundled as deployed and run in workerd (miniflare), against the Node test
 * app's database, IDP and storage service: a template is sanitised in the request (the parser-based sanitiser,
 * no worker threads there) and stored as on Node.
 */
describe('data models and render templates as edge functions in workerd', () => {
  let dir: string;
  let mf: Miniflare;
  let rig: RenderTemplateRig;
  const base = 'http://edge.test';

  const call = async (method: string, path: string, init: { token?: string; body?: unknown } = {}) => {
    const headers: Record<string, string> = {};
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const response = await mf.dispatchFetch(`${base}${path}`, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'css-edge-templates-'));
    for (const group of ['data-models', 'render-templates']) await bundleEdgeEntry(`functions/${group}/edge.ts`, join(dir, `${group}.js`));
    rig = await startRenderTemplateRig();
    const bindings = {
      RI_DATABASE_URL: rig.t.databaseUrl,
      RI_APP_URL: base,
      DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      AUTH_OIDC_ISSUER: rig.t.idp.issuer,
      AUTH_OIDC_CLIENT_ID: TEST_APP_CLIENT.clientId,
      AUTH_OIDC_CLIENT_SECRET: TEST_APP_CLIENT.clientSecret,
      AUTH_OIDC_SERVICE_ACCOUNT_AUDIENCE: TEST_AUDIENCE,
      FETCH_ALLOW_PRIVATE_URLS: 'true',
      LOG_LEVEL: 'error',
    };
    const common = { modules: true, modulesRoot: dir, compatibilityDate: '2026-07-01', compatibilityFlags: ['nodejs_compat'], bindings };
    mf = new Miniflare({
      workers: [
        { ...common, name: 'data-models', scriptPath: join(dir, 'data-models.js'), routes: ['*/api/v1/data-models*'] },
        { ...common, name: 'render-templates', scriptPath: join(dir, 'render-templates.js'), routes: ['*/api/v1/render-templates*'] },
      ],
    });
    await mf.ready;
  }, 180_000);

  afterAll(async () => {
    await mf?.dispose();
    await rig?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('creates a render template: sanitised in the request, stored in the storage service, listed on its data model', async () => {
    const created = await call('POST', '/api/v1/render-templates', { token: rig.token, body: renderTemplateBody() });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ storageServiceInstanceId: rig.storageId, digestMultibase: expect.stringMatching(/^zQm/) });
    const stored = await (await fetch(created.body.storageUrl)).text();
    expect(stored).toContain('{{credentialSubject.name}}');
    expect(stored).toContain('<style>h1{color:#234}</style>');
    expect(stored).not.toMatch(/<script|onerror|alert/);
    const model = await call('GET', `/api/v1/data-models/${DPP_070}`, { token: rig.token });
    expect(model.status).toBe(200);
    expect(model.body.renderTemplates.map((r: { id: string }) => r.id)).toContain(created.body.id);
    const read = await call('GET', `/api/v1/render-templates/${created.body.id}`, { token: rig.token });
    expect(read.body.id).toBe(created.body.id);
    expect((await call('GET', `/api/v1/render-templates/${created.body.id}`, { token: await rig.t.token('tenantB') })).status).toBe(404);
  });

  it('keeps the platform conventions: 401 without a token, 400 naming the field', async () => {
    expect((await call('GET', '/api/v1/data-models')).status).toBe(401);
    const bad = await call('POST', '/api/v1/render-templates', { token: rig.token, body: renderTemplateBody({ name: '' }) });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^name: /);
    const list = await call('GET', '/api/v1/data-models?limit=5', { token: rig.token });
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body.data)).toBe(true);
  });
});
