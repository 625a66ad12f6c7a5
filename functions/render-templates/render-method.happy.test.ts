import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPayloadChecks } from '../../core/credentials/payload-validation.ts';
import { documentSettings, offlineFetcher } from '../../core/credentials/test-support/offline.ts';
import { SAMPLES, samplePayload } from '../../test/rig/credential-fixtures.ts';
import { DPP_070, renderTemplateBody, startRenderTemplateRig, type RenderTemplateRig } from '../../test/rig/template-fixtures.ts';

const DPP_061 = 'c1pxfzzkeb86jgeel7hrvmcle';
const CONTENT = '<article><h1>{{credentialSubject.product.name}}</h1></article>';
let rig: RenderTemplateRig;

beforeAll(async () => {
  rig = await startRenderTemplateRig();
});
afterAll(() => rig.close());

const create = async (overrides: Record<string, unknown>) => {
  const res = await rig.t.call('POST', '/api/v1/render-templates', { token: rig.token, body: renderTemplateBody({ template: CONTENT, ...overrides }) });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; storageUrl: string; digestMultibase: string; name: string };
};
const renderMethod = (id: string) => rig.t.call('GET', `/api/v1/render-templates/${id}/render-method`, { token: rig.token });
const schemaUrlOf = async (id: string) => (await rig.t.call('GET', `/api/v1/data-models/${id}`, { token: rig.token })).body.schemaUrl as string;

describe('GET /render-templates/{id}/render-method', () => {
  it('0.7.0, linked: type as an array, the stored URL and its digest; the URL serves content with that digest', async () => {
    const made = await create({ name: 'DPP card', mediaQuery: '(min-width: 40rem)' });
    const res = await renderMethod(made.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ type: ['RenderTemplate2024'], name: 'DPP card', url: made.storageUrl, digestMultibase: made.digestMultibase, mediaType: 'text/html', mediaQuery: '(min-width: 40rem)' });
    expect(await (await fetch(res.body.url)).text()).toBe(CONTENT);
  });

  it('0.7.0: a payload carrying the entry meets the UNTP 0.7.0 schema (a string type would not)', async () => {
    const entry = (await renderMethod((await create({})).id)).body;
    const checks = createPayloadChecks(offlineFetcher(), documentSettings());
    const payload = samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, 'did:web:example.test');
    const schemaUrl = await schemaUrlOf(DPP_070);
    await expect(checks.validateSchemas({ ...payload, renderMethod: [entry] }, [schemaUrl])).resolves.toBeUndefined();
    await expect(checks.validateSchemas({ ...payload, renderMethod: [{ ...entry, type: 'RenderTemplate2024' }] }, [schemaUrl])).rejects.toThrow();
  });

  it('0.7.0, inline: the template itself (read back from storage) with its digest, no URL', async () => {
    const made = await create({ inline: true });
    const res = await renderMethod(made.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ type: ['RenderTemplate2024'], name: made.name, template: CONTENT, digestMultibase: made.digestMultibase, mediaType: 'text/html' });
  });

  it('0.6.x: RenderTemplate2024 with type as a string; WebRenderingTemplate2022 carries its template inline', async () => {
    const linked = await create({ dataModelId: DPP_061 });
    expect((await renderMethod(linked.id)).body).toEqual({ type: 'RenderTemplate2024', name: linked.name, url: linked.storageUrl, digestMultibase: linked.digestMultibase, mediaType: 'text/html' });
    const web = await create({ dataModelId: DPP_061, renderMethodType: 'WebRenderingTemplate2022', name: 'Legacy card' });
    expect((await renderMethod(web.id)).body).toEqual({ type: 'WebRenderingTemplate2022', name: 'Legacy card', template: CONTENT });
  });
});
