import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIssuanceRig, type IssuanceRig } from '../../test/rig/credential-fixtures.ts';
import { apiAs, signInToConsole, type ConsoleUser } from '../../test/rig/console-user.ts';
import { DPP_070, TEMPLATE_STORAGE_ENV } from '../../test/rig/template-fixtures.ts';

const MISSING = 'zzzzzzzzzzzzzzzzzzzzzzzzz';
const withoutVolatile = (html: string) => html.replace(/nonce="[^"]+"|[0-9a-f]{64}/g, '');
/** The preview frame's document (the page escapes it once more as an attribute). */
const srcdocOf = (html: string) =>
  html.match(/<iframe class="rendered" sandbox="" srcdoc="([^"]*)"/)?.[1]?.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** Issue 32 item 8: render templates listed, uploaded, edited with a live preview, and made the default. */
describe('console: render templates', () => {
  let rig: IssuanceRig;
  let alice: ConsoleUser;
  let bob: ConsoleUser;
  let templateId: string;

  beforeAll(async () => {
    rig = await startIssuanceRig({}, {}, TEMPLATE_STORAGE_ENV);
    [alice, bob] = await Promise.all([signInToConsole(rig.t.url, 'alice'), signInToConsole(rig.t.url, 'bob')]);
  }, 60_000);
  afterAll(() => rig?.close());

  it('previews a typed template against a sample credential of the data model, sanitised, in a sandboxed frame', async () => {
    const res = await alice.post('/console/templates/preview', { dataModelId: DPP_070, template: '<h1>{{credentialSubject.name}}</h1><script>alert(1)</script><img src=x onerror="alert(2)">' });
    expect(res.status).toBe(200);
    const frame = srcdocOf(res.html)!;
    expect(frame).toContain('<h1>Example Cell A1</h1>');
    expect(frame).not.toContain('<script');
    expect(frame).not.toContain('onerror');
    const broken = await alice.post('/console/templates/preview', { dataModelId: DPP_070, template: '{{#each credentialSubject}}' });
    expect(broken.html).toContain('The template cannot be rendered');
    expect(srcdocOf(broken.html)).toBeUndefined();
  });

  it('uploads a template, lists it, edits it (the preview follows the typed text, unsaved) and makes it the default', async () => {
    const list = await alice.get('/console/templates');
    expect(list.status).toBe(200);
    expect(list.html).toContain(`value="${DPP_070}"`);
    const created = await alice.post('/console/templates/new', { name: 'Passport <card>', dataModelId: DPP_070, renderMethodType: 'RenderTemplate2024', isDefault: 'false', template: '<h1>{{credentialSubject.name}}</h1>' });
    expect(created.status, created.html).toBe(303);
    templateId = created.location!.split('/').pop()!;
    const page = await alice.get(created.location!);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Passport &lt;card&gt;');
    expect(page.html).toContain('&lt;h1&gt;{{credentialSubject.name}}&lt;/h1&gt;</textarea>');
    expect(srcdocOf(page.html)).toContain('<h1>Example Cell A1</h1>');
    expect((await alice.get('/console/templates')).html).toContain(`href="/console/templates/${templateId}"`);

    const preview = await alice.post(`/console/templates/${templateId}?preview=1`, { name: 'Passport <card>', dataModelId: DPP_070, template: '<h2>{{issuer.name}}</h2>' });
    expect(srcdocOf(preview.html)).toContain('<h2>Example Manufacturing Ltd</h2>');
    expect(srcdocOf((await alice.get(`/console/templates/${templateId}`)).html)).toContain('<h1>Example Cell A1</h1>');

    const saved = await alice.post(`/console/templates/${templateId}`, { name: 'Passport card', template: '<h2>{{issuer.name}}</h2>' });
    expect(saved.status, saved.html).toBe(303);
    const after = (await apiAs(alice, rig.t.url, 'GET', `/render-templates/${templateId}`, undefined, 200)) as { name: string; isDefault: boolean };
    expect(after).toMatchObject({ name: 'Passport card', isDefault: false });
    expect(srcdocOf((await alice.get(`/console/templates/${templateId}`)).html)).toContain('<h2>Example Manufacturing Ltd</h2>');

    const made = await alice.post(`/console/templates/${templateId}/default`, {});
    expect(made.status).toBe(303);
    expect((await alice.get(`/console/templates/${templateId}`)).html).toMatch(/id="template-default">yes</);
    expect((await apiAs(alice, rig.t.url, 'GET', `/render-templates/${templateId}`, undefined, 200)).isDefault).toBe(true);
  });

  it('shows the problems beside the fields and writes nothing', async () => {
    const before = (await apiAs(alice, rig.t.url, 'GET', '/render-templates?limit=100', undefined, 200)).pagination.total;
    const blank = await alice.post('/console/templates/new', { name: '', dataModelId: DPP_070, renderMethodType: 'RenderTemplate2024', template: '' });
    expect(blank.status).toBe(400);
    expect(blank.html).toMatch(/id="name-error">[^<]+</);
    expect(blank.html).toMatch(/id="template-error">[^<]+</);
    const foreignModel = await alice.post('/console/templates/new', { name: 'x', dataModelId: MISSING, renderMethodType: 'RenderTemplate2024', template: '<p>x</p>' });
    expect(foreignModel.status).toBe(404);
    expect(foreignModel.html).toMatch(/id="dataModelId-error">[^<]+</);
    const badEdit = await alice.post(`/console/templates/${templateId}`, { name: ' ', template: '<p>x</p>' });
    expect(badEdit.status).toBe(400);
    expect(badEdit.html).toMatch(/id="name-error">[^<]+</);
    expect((await apiAs(alice, rig.t.url, 'GET', '/render-templates?limit=100', undefined, 200)).pagination.total).toBe(before);
  });

  it("another tenant's template is a 404 identical to a missing one, on its page and every form", async () => {
    const missing = await bob.get(`/console/templates/${MISSING}`);
    expect(missing.status).toBe(404);
    const foreign = await bob.get(`/console/templates/${templateId}`);
    expect(foreign.status).toBe(404);
    expect(withoutVolatile(foreign.html)).toBe(withoutVolatile(missing.html));
    expect((await bob.post(`/console/templates/${templateId}`, { name: 'Mine', template: '<p>mine</p>' })).status).toBe(404);
    expect((await bob.post(`/console/templates/${templateId}/default`, {})).status).toBe(404);
    expect((await bob.get('/console/templates')).html).not.toContain(templateId);
    expect((await apiAs(alice, rig.t.url, 'GET', `/render-templates/${templateId}`, undefined, 200)).name).toBe('Passport card');
  });

  it('refuses every form without the CSRF token', async () => {
    for (const [path, form] of [
      ['/console/templates/new', { name: 'x', dataModelId: DPP_070, renderMethodType: 'RenderTemplate2024', template: '<p>x</p>' }],
      [`/console/templates/${templateId}`, { name: 'x', template: '<p>x</p>' }],
      [`/console/templates/${templateId}/default`, {}],
      ['/console/templates/preview', { dataModelId: DPP_070, template: '<p>x</p>' }],
    ] as const) {
      expect((await alice.post(path, form, { csrf: false })).status).toBe(403);
    }
  });
});
