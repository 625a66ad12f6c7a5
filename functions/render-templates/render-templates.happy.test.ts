import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StorageHarness } from '../../storage-service/test/storage-harness.ts';
import { DPP_070, renderTemplateBody, startRenderTemplateRig, type RenderTemplateRig } from '../../test/rig/template-fixtures.ts';
import type { TestApp } from '../../test/rig/test-app.ts';

let rig: RenderTemplateRig;
let t: TestApp;
let storage: StorageHarness;
let token: string;
let storageId: string;

beforeAll(async () => {
  rig = await startRenderTemplateRig();
  ({ t, storage, token, storageId } = rig);
});
afterAll(() => rig.close());

const body = renderTemplateBody;
const create = (b: unknown, tok = token) => t.call('POST', '/api/v1/render-templates', { token: tok, body: b });
const stored = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, text: await res.text() };
};

describe('render templates', () => {
  it('sanitises, stores the content in the storage service, and records where (digest included)', async () => {
    const res = await create(body());
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ renderMethodType: 'RenderTemplate2024', inline: false, mediaType: 'text/html', mediaQuery: null, isDefault: false, storageServiceInstanceId: storageId, digestMultibase: expect.stringMatching(/^zQm/) });
    expect(res.body.storageUrl).toMatch(new RegExp(`^${storage.url}/api/v4/documents/[0-9a-f-]{36}\\.html$`));
    const content = await stored(res.body.storageUrl);
    expect(content.text).toContain('{{credentialSubject.name}}');
    expect(content.text).toContain('<style>');
    expect(content.text).not.toMatch(/<script|onerror/);
    const model = await t.call('GET', `/api/v1/data-models/${DPP_070}`, { token });
    expect(model.body.renderTemplates.map((r: { id: string }) => r.id)).toContain(res.body.id);
  });

  it('one default per data model: a new default demotes the previous one', async () => {
    const first = (await create(body({ name: 'First', isDefault: true }))).body;
    const second = (await create(body({ name: 'Second', isDefault: true }))).body;
    expect(second.isDefault).toBe(true);
    expect((await t.call('GET', `/api/v1/render-templates/${first.id}`, { token })).body.isDefault).toBe(false);
    const back = await t.call('PATCH', `/api/v1/render-templates/${first.id}`, { token, body: { isDefault: true } });
    expect(back.body.isDefault).toBe(true);
    expect((await t.call('GET', `/api/v1/render-templates/${second.id}`, { token })).body.isDefault).toBe(false);
  });

  it('PATCH replaces content (old content deleted), resets mediaType and clears mediaQuery with null', async () => {
    const made = (await create(body({ mediaType: 'text/html', mediaQuery: '(max-width: 600px)' }))).body;
    const res = await t.call('PATCH', `/api/v1/render-templates/${made.id}`, {
      token,
      body: { template: '<p>{{name}} v2</p>', mediaType: null, mediaQuery: null, name: 'Renamed' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renamed', mediaType: 'text/html', mediaQuery: null });
    expect(res.body.storageUrl).not.toBe(made.storageUrl);
    expect((await stored(res.body.storageUrl)).text).toBe('<p>{{name}} v2</p>');
    expect((await stored(made.storageUrl)).status).toBe(404);
  });

  it('DELETE removes the record and the stored content; deleting a data model cascades', async () => {
    const made = (await create(body())).body;
    expect((await t.call('DELETE', `/api/v1/render-templates/${made.id}`, { token })).status).toBe(204);
    expect((await t.call('GET', `/api/v1/render-templates/${made.id}`, { token })).status).toBe(404);
    expect((await stored(made.storageUrl)).status).toBe(404);
    const ext = (await t.call('POST', '/api/v1/data-models', {
      token,
      body: { name: 'Ext', credentialType: 'Ext', version: '0.7.0', parentConfigId: DPP_070, schemaUrl: 'https://s.example.com/s.json', contextUrl: 'https://s.example.com/c' },
    })).body;
    const tpl = (await create(body({ dataModelId: ext.id }))).body;
    expect((await t.call('DELETE', `/api/v1/data-models/${ext.id}`, { token })).status).toBe(204);
    expect((await t.call('GET', `/api/v1/render-templates/${tpl.id}`, { token })).status).toBe(404);
    expect((await stored(tpl.storageUrl)).status).toBe(404);
  });

  it('create treats null mediaType and mediaQuery as omitted; the list filters by data model', async () => {
    const made = await create(body({ mediaType: null, mediaQuery: null, dataModelId: 'cj3s37lt6pvh56ggspr9upt5m' }));
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ mediaType: 'text/html', mediaQuery: null, inline: false });
    const list = await t.call('GET', '/api/v1/render-templates?dataModelId=cj3s37lt6pvh56ggspr9upt5m', { token });
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([made.body.id]);
    expect((await t.call('GET', '/api/v1/render-templates?dataModelId=a&dataModelId=b', { token })).status).toBe(400);
  });

});
