import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderTemplates } from '../../db/schema/index.ts';
import { startStorage, type StorageHarness } from '../../storage-service/test/storage-harness.ts';
import { securitySuite } from '../../test/rig/security-suite.ts';
import { createPrimaryStorage, renderTemplateBody, TEMPLATE_STORAGE_ENV } from '../../test/rig/template-fixtures.ts';
import type { TestApp } from '../../test/rig/test-app.ts';

const templates = '/api/v1/render-templates';
const body = (overrides: Record<string, unknown> = {}) => renderTemplateBody({ template: '<h1>{{credentialSubject.name}}</h1>', ...overrides });
let storage: StorageHarness | undefined;
let t: TestApp;
let tokenA: string;
let template: { id: string; storageUrl: string };

const context = securitySuite({
  name: '/render-templates',
  app: { env: { FETCH_ALLOW_PRIVATE_URLS: 'true' } },
  setup: async (app, a) => {
    storage = await startStorage('local', TEMPLATE_STORAGE_ENV);
    const storageOfA = await createPrimaryStorage(app, a, storage.url);
    const made = await app.call('POST', templates, { token: a, body: body() });
    return { storageOfA, templateOfA: made.body as { id: string; storageUrl: string } };
  },
  routes: (f) => [
    ['POST', templates, body()],
    ['GET', templates],
    ['GET', `${templates}/${f.templateOfA.id}`],
    ['GET', `${templates}/${f.templateOfA.id}/render-method`],
    ['PATCH', `${templates}/${f.templateOfA.id}`, { name: 'stolen' }],
    ['DELETE', `${templates}/${f.templateOfA.id}`],
  ],
  foreign: (f) => [
    { method: 'GET', path: (id) => `${templates}/${id}`, id: f.templateOfA.id },
    { method: 'GET', path: (id) => `${templates}/${id}/render-method`, id: f.templateOfA.id },
    { method: 'PATCH', path: (id) => `${templates}/${id}`, body: () => ({ name: 'stolen' }), id: f.templateOfA.id },
    { method: 'DELETE', path: (id) => `${templates}/${id}`, id: f.templateOfA.id },
    { method: 'POST', path: () => templates, body: (id) => body({ storageOptions: { serviceInstanceId: id } }), id: f.storageOfA.id },
  ],
  lists: (f) => [{ path: `${templates}?limit=100`, hidden: [f.templateOfA.id] }],
  snapshot: async (app, f, a) => (await app.call('GET', `${templates}/${f.templateOfA.id}`, { token: a })).body,
  count: async (db) => (await db.select().from(renderTemplates)).length,
});
beforeAll(() => {
  ({ t, tokenA } = context());
  template = context().fixture.templateOfA;
});
afterAll(() => storage?.close());

describe('render template content', () => {
  it('stays stored after every refused request', async () => {
    expect((await t.call('GET', `${templates}/${template.id}`, { token: tokenA })).body.name).toBe('Passport card');
    expect((await fetch(template.storageUrl)).status).toBe(200);
  });
});
