import { readdir } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StorageHarness } from '../../storage-service/test/storage-harness.ts';
import { renderTemplateBody, startRenderTemplateRig, type RenderTemplateRig } from '../../test/rig/template-fixtures.ts';
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

describe('render template validation and lookups', () => {
  it('WebRenderingTemplate2022 has no inline/mediaType/mediaQuery', async () => {
    const ok = await create(body({ renderMethodType: 'WebRenderingTemplate2022' }));
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ inline: null, mediaType: null, mediaQuery: null });
    for (const field of ['inline', 'mediaType', 'mediaQuery']) {
      const res = await create(body({ renderMethodType: 'WebRenderingTemplate2022', [field]: field === 'inline' ? true : 'x' }));
      expect(res.status, field).toBe(400);
      expect(res.body.error).toBe(`${field}: is not applicable to the WebRenderingTemplate2022 render method (only RenderTemplate2024 has it)`);
    }
    const patch = await t.call('PATCH', `/api/v1/render-templates/${ok.body.id}`, { token, body: { inline: true } });
    expect(patch.status).toBe(400);
    expect(patch.body.error).toMatch(/^inline: is not applicable to the WebRenderingTemplate2022 render method/);
  });

  it('400s: server-managed fields, empty template, unknown type, storageOptions-only PATCH, immutable type', async () => {
    for (const [b, error] of [
      [body({ storageUrl: 'https://x' }), /^storageUrl: is server-managed/],
      [body({ digestMultibase: 'zQm' }), /^digestMultibase: is server-managed/],
      [body({ hash: 'ab' }), /^hash: is server-managed/],
      [body({ template: '' }), /^template: /],
      [body({ template: '   ' }), /^template: /],
      [body({ renderMethodType: 'Handlebars' }), /^renderMethodType: must be one of/],
      [body({ name: ' ' }), /^name: /],
    ] as const) {
      const res = await create(b);
      expect(res.status, JSON.stringify(b)).toBe(400);
      expect(res.body.error).toMatch(error);
    }
    const made = (await create(body())).body;
    for (const [b, error] of [
      [{ storageOptions: { serviceInstanceId: storageId } }, /at least one of/],
      [{ template: '' }, /^template: /],
      [{ renderMethodType: 'WebRenderingTemplate2022' }, /^renderMethodType: is immutable/],
      [{ digestMultibase: 'x', name: 'y' }, /^digestMultibase: /],
    ] as const) {
      const res = await t.call('PATCH', `/api/v1/render-templates/${made.id}`, { token, body: b });
      expect(res.status, JSON.stringify(b)).toBe(400);
      expect(res.body.error).toMatch(error);
    }
  });

  it('404 names the failed lookup; storage resolution precedes the template lookup', async () => {
    const noModel = await create(body({ dataModelId: 'nope' }));
    expect(noModel.status).toBe(404);
    expect(noModel.body.error).toMatch(/^dataModelId: /);
    const noStorage = await create(body({ storageOptions: { serviceInstanceId: 'nope' } }));
    expect(noStorage.status).toBe(404);
    expect(noStorage.body.error).toMatch(/^storageOptions\.serviceInstanceId: /);
    const both = await t.call('PATCH', '/api/v1/render-templates/nope', { token, body: { template: '<p>x</p>', storageOptions: { serviceInstanceId: 'nope' } } });
    expect(both.status).toBe(404);
    expect(both.body.error).toMatch(/^storageOptions\.serviceInstanceId: /);
  });

  it('a PATCH whose record write fails removes the content it uploaded (no orphan in storage)', async () => {
    const made = (await create(body())).body;
    const objects = async () => (await readdir(storage.settings.localDirectory, { recursive: true })).filter((f) => f.endsWith('.html') && !f.split('/').at(-1)!.startsWith('corr.')).sort();
    const before = await objects();
    await t.db.execute(sql.raw(`
      create function refuse_template_update() returns trigger language plpgsql as $$ begin raise exception 'record write refused by the test'; end $$;
      create trigger refuse_template_update before update on render_templates for each row execute function refuse_template_update();`));
    try {
      const res = await t.call('PATCH', `/api/v1/render-templates/${made.id}`, { token, body: { template: '<p>{{name}} lost</p>' } });
      expect(res.status).toBe(500);
    } finally {
      await t.db.execute(sql.raw('drop trigger refuse_template_update on render_templates; drop function refuse_template_update();'));
    }
    expect(await objects()).toEqual(before);
    expect((await t.call('GET', `/api/v1/render-templates/${made.id}`, { token })).body.storageUrl).toBe(made.storageUrl);
  });
});
