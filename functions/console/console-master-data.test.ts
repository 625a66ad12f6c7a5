import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_PAYLOADS } from '../../test/browser/xss-corpus.ts';
import { apiAs, signInToConsole, type ConsoleUser } from '../../test/rig/console-user.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

/** The HTML-escaped form of a text, as a page must contain it when it shows the text as text. */
const asText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

describe('console: master data', () => {
  let t: TestApp;
  let alice: ConsoleUser;
  let bob: ConsoleUser;
  beforeAll(async () => {
    t = await startTestApp();
    [alice, bob] = await Promise.all([signInToConsole(t.url, 'alice'), signInToConsole(t.url, 'bob')]);
  });
  afterAll(() => t.close());

  it('creates an organisation and a product with a GTIN identifier through the forms, and lists and searches them', async () => {
    expect((await alice.post('/console/registrars/new', { name: 'GS1', namespace: 'gs1', url: 'https://id.gs1.example' })).status).toBe(303);
    const [registrar] = (await apiAs(alice, t.url, 'GET', '/registrars', undefined, 200)).data.filter((r: { name: string }) => r.name === 'GS1');
    expect((await alice.get('/console/schemes/new')).html).toContain(`value="${registrar.id}"`);
    const badPattern = await alice.post('/console/schemes/new', { registrarId: registrar.id, name: 'GTIN', primaryKey: '01', validationPattern: '([', linkTemplate: '/{primaryKey}/{value}' });
    expect(badPattern.status).toBe(400);
    expect(badPattern.html).toMatch(/id="validationPattern-error">[^<]+</);
    const schemeMade = await alice.post('/console/schemes/new', { registrarId: registrar.id, name: 'GTIN', primaryKey: '01', validationPattern: '^\\d{14}$', linkTemplate: '/{primaryKey}/{value}' });
    expect(schemeMade.status).toBe(303);
    const [scheme] = (await apiAs(alice, t.url, 'GET', '/schemes', undefined, 200)).data.filter((r: { name: string }) => r.name === 'GTIN');
    expect((await alice.get('/console/identifiers/new')).html).toContain('GTIN (01)');
    const identifier = await alice.post('/console/identifiers/new', { schemeId: scheme.id, value: '09520123456788' });
    expect(identifier.status).toBe(303);
    const created = await alice.post('/console/organisations/new', { name: 'Acme Batteries', description: 'Cells' });
    expect(created.status).toBe(303);
    expect(created.location).toBe('/console/organisations?saved=1');
    const [gtin] = (await apiAs(alice, t.url, 'GET', '/identifiers', undefined, 200)).data;
    const [org] = (await apiAs(alice, t.url, 'GET', '/organisations', undefined, 200)).data;
    const product = await alice.post('/console/products/new', { name: 'Cell A1', level: 'MODEL', producedByOrganisationId: org.id, primaryIdentifierId: gtin.id });
    expect(product.status).toBe(303);
    const [made] = (await apiAs(alice, t.url, 'GET', '/products', undefined, 200)).data;
    expect(made).toMatchObject({ name: 'Cell A1', level: 'MODEL', producedByOrganisationId: org.id, primaryIdentifierId: gtin.id });

    const list = await alice.get('/console/products?q=cell');
    expect(list.status).toBe(200);
    expect(list.html).toContain('Cell A1');
    expect((await alice.get('/console/products?q=nothing-like-it')).html).toContain('0 products matching');
    expect((await alice.get('/console/products?q=09520123456788')).html).toContain('Cell A1');
  });

  it('pages a list by 20', async () => {
    await apiAs(alice, t.url, 'POST', '/facilities', Array.from({ length: 21 }, (_, i) => ({ name: `Plant ${i}` })));
    const first = await alice.get('/console/facilities');
    expect(first.html).toContain('21 facilities');
    expect(first.html).toContain('rel="next"');
    expect((first.html.match(/<tr>/g) ?? []).length).toBe(21); // header + 20
    const second = await alice.get('/console/facilities?page=2');
    expect((second.html.match(/<tr>/g) ?? []).length).toBe(2);
    expect(second.html).toContain('rel="prev"');
  });

  it('edits and deletes a record', async () => {
    const [org] = await apiAs(alice, t.url, 'POST', '/organisations', [{ name: 'To edit', description: 'old' }]);
    const form = await alice.get(`/console/organisations/${org.id}`);
    expect(form.html).toContain('value="To edit"');
    expect((await alice.post(`/console/organisations/${org.id}`, { name: 'Edited', description: '' })).status).toBe(303);
    const edited = await apiAs(alice, t.url, 'GET', `/organisations/${org.id}`, undefined, 200);
    expect(edited.name).toBe('Edited');
    expect(edited.description ?? null).toBeNull(); // emptied: the API's null clears
    expect((await alice.post(`/console/organisations/${org.id}/delete`, {})).status).toBe(303);
    await apiAs(alice, t.url, 'GET', `/organisations/${org.id}`, undefined, 404);
  });

  it('shows the API’s validation messages beside the field, with a 400, and writes nothing', async () => {
    const blank = await alice.post('/console/organisations/new', { name: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.html).toMatch(/id="name-error">[^<]+</);
    expect(blank.html).toMatch(/id="name"[^>]*aria-invalid="true"/);
    const noLevel = await alice.post('/console/products/new', { name: 'No level' });
    expect(noLevel.status).toBe(400);
    expect(noLevel.html).toMatch(/id="level-error">/);
    const [scheme] = (await apiAs(alice, t.url, 'GET', '/schemes', undefined, 200)).data.filter((s: { name: string }) => s.name === 'GTIN');
    const badValue = await alice.post('/console/identifiers/new', { schemeId: scheme.id, value: 'abc' });
    expect(badValue.status).toBe(400);
    expect(badValue.html).toContain('id="value-error">must match the scheme');
    const duplicate = await alice.post('/console/identifiers/new', { schemeId: scheme.id, value: '09520123456788' });
    expect(duplicate.status).toBe(409);
    const nul = await alice.post('/console/organisations/new', { name: 'a\u0000b' });
    expect(nul.status).toBe(400);
    const names = (await apiAs(alice, t.url, 'GET', '/organisations?limit=100', undefined, 200)).data.map((o: { name: string }) => o.name);
    expect(names).not.toContain('No level');
  });

  it('answers another tenant’s ids in URLs and forms exactly as missing ones (404) and changes nothing', async () => {
    const [theirs] = await apiAs(bob, t.url, 'POST', '/organisations', [{ name: 'Bob Org' }]);
    const missing = await alice.get('/console/organisations/nosuchid0000000000000000');
    const foreign = await alice.get(`/console/organisations/${theirs.id}`);
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(foreign.html.replace(/nonce="[^"]+"|[0-9a-f]{64}/g, '')).toBe(missing.html.replace(/nonce="[^"]+"|[0-9a-f]{64}/g, ''));
    expect((await alice.post(`/console/organisations/${theirs.id}`, { name: 'Hijacked' })).status).toBe(404);
    expect((await alice.post(`/console/organisations/${theirs.id}/delete`, {})).status).toBe(404);
    const inForm = await alice.post('/console/products/new', { name: 'Uses Bob', level: 'MODEL', producedByOrganisationId: theirs.id });
    expect(inForm.status).toBe(404);
    expect(inForm.html).toContain('id="producedByOrganisationId-error">organisation not found');
    const issue = await alice.post('/console/issue/preview', { dataModelId: 'ca3frzta22f7lblxntvw6ukuh', organisation: theirs.id, countryOfProduction: 'AU' });
    expect(issue.status).toBe(404);
    expect((await apiAs(bob, t.url, 'GET', `/organisations/${theirs.id}`, undefined, 200)).name).toBe('Bob Org');
  });

  it('shows every typed value as text (the XSS corpus), in lists and forms', async () => {
    for (const payload of FIELD_PAYLOADS) {
      expect((await alice.post('/console/organisations/new', { name: payload, description: payload })).status).toBe(303);
    }
    const list = await alice.get('/console/organisations?page=1');
    const orgs = (await apiAs(alice, t.url, 'GET', '/organisations?limit=100', undefined, 200)).data as { id: string; name: string }[];
    for (const payload of FIELD_PAYLOADS.slice(-5)) expect(list.html).toContain(asText(payload));
    for (const org of orgs.filter((o) => FIELD_PAYLOADS.includes(o.name))) {
      const page = await alice.get(`/console/organisations/${org.id}`);
      expect(page.html).toContain(asText(org.name));
      expect(page.html).not.toContain(org.name.includes('<') ? org.name : '\u0000never');
    }
    // Refused input is shown back as text too.
    const refused = await alice.post('/console/products/new', { name: FIELD_PAYLOADS[0]!, level: 'BATCH' });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain(asText(FIELD_PAYLOADS[0]!));
    expect(refused.html).not.toContain(FIELD_PAYLOADS[0]!);
  });
});
