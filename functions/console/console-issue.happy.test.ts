import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIssuanceRig, type IssuanceRig } from '../../test/rig/credential-fixtures.ts';
import { TEMPLATE_STORAGE_ENV } from '../../test/rig/template-fixtures.ts';
import { apiAs, consoleMasterData, signInToConsole, type ConsoleUser } from '../../test/rig/console-user.ts';

const DPP_070 = 'ca3frzta22f7lblxntvw6ukuh';

/** The heart of issue 32: a person issues a product passport from pickers, without typing JSON. */
describe('console: issue a credential from master data', () => {
  let rig: IssuanceRig;
  let alice: ConsoleUser;
  let data: Awaited<ReturnType<typeof consoleMasterData>>;
  const choices = () => ({
    dataModelId: DPP_070,
    organisation: data.organisation.id,
    facility: data.facility.id,
    product: data.product.id,
    countryOfProduction: 'au',
    issuerDid: data.did.id,
    encrypt: 'true',
  });

  beforeAll(async () => {
    rig = await startIssuanceRig({ CREDENTIAL_STATUS_MUTATION_ENABLED: 'true', CREDENTIAL_STATUS_MULTIPLE_PURPOSES_ENABLED: 'true', CREDENTIAL_STATUS_DEFAULT_PURPOSES: 'revocation,suspension' }, {}, TEMPLATE_STORAGE_ENV);
    alice = await signInToConsole(rig.t.url, 'alice');
    data = await consoleMasterData(alice, rig.t.url);
  }, 60_000);
  afterAll(() => rig?.close());

  it('offers the product passport model, then the pickers form-config describes, filled with the tenant’s records', async () => {
    const choice = await alice.get('/console/issue');
    expect(choice.status).toBe(200);
    expect(choice.html).toContain(`value="${DPP_070}"`);
    const form = await alice.get(`/console/issue?dataModelId=${DPP_070}`);
    expect(form.status).toBe(200);
    for (const name of ['organisation', 'facility', 'product', 'issuerDid', 'countryOfProduction']) expect(form.html).toContain(`name="${name}"`);
    expect(form.html).toContain('Acme Batteries Pty Ltd');
    expect(form.html).toContain('Cell A1 (model)');
    expect(form.html).toContain(data.did.did);
  });

  it('previews the payload built from the chosen records, with the JSON one click away', async () => {
    const preview = await alice.post('/console/issue/preview', choices());
    expect(preview.status).toBe(200);
    const json = preview.html.match(/<pre id="payload-json">([\s\S]*?)<\/pre>/)![1]!.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
    const payload = JSON.parse(json);
    expect(payload.credentialSubject).toMatchObject({ id: 'https://id.gs1.example/01/09520123456788', name: 'Cell A1', countryOfProduction: { countryCode: 'AU' } });
    expect(payload.issuer).toEqual({ type: ['CredentialIssuer'], id: data.did.did, name: 'Acme Batteries Pty Ltd' });
    expect(preview.html).toMatch(/name="idempotencyKey" value="[0-9a-f-]{36}"/);
  });

  it('issues it: the result shows the verify link, its QR code and the decryption key; the API lists the credential', async () => {
    const preview = await alice.post('/console/issue/preview', choices());
    const key = preview.html.match(/name="idempotencyKey" value="([0-9a-f-]{36})"/)![1]!;
    const issued = await alice.post('/console/issue', { ...choices(), idempotencyKey: key });
    expect(issued.status).toBe(201);
    expect(issued.html).toContain('Credential issued');
    expect(issued.html).toMatch(/<svg[^>]*>/);
    const verifyHref = issued.html.match(/id="verify-link" href="([^"]+)"/)![1]!.replace(/&amp;/g, '&');
    expect(verifyHref).toContain('/verify?');
    const decryptionKey = issued.html.match(/id="decryption-key">([0-9a-f]{64})</)![1];
    const id = issued.html.match(/href="\/console\/credentials\/([^"]+)"/)![1]!;
    const record = await apiAs(alice, rig.t.url, 'GET', `/credentials/${id}`, undefined, 200);
    expect(record).toMatchObject({ credentialType: 'DigitalProductPassport', version: '0.7.0', encrypted: true, decryptionKey, productId: data.product.id });

    // The same preview sent again (a double click) issues nothing new.
    const again = await alice.post('/console/issue', { ...choices(), idempotencyKey: key });
    expect(again.html).toContain(`/console/credentials/${id}`);
    const list = await apiAs(alice, rig.t.url, 'GET', '/credentials', undefined, 200);
    expect(list.data.filter((c: { id: string }) => c.id === id)).toHaveLength(1);
    expect(list.data).toHaveLength(1);

    const page = await alice.get(`/console/credentials/${id}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain(decryptionKey);

    // The dashboard counts it as issued today and this week; another person's dashboard does not.
    const dashboard = await alice.get('/console');
    expect(dashboard.html).toContain('id="issued-today">1<');
    expect(dashboard.html).toContain('id="issued-week">1<');
    expect((await (await signInToConsole(rig.t.url, 'bob')).get('/console')).html).toContain('id="issued-today">0<');
  });

  it('shows a missing choice or a bad country beside its field, as a 400 of the form', async () => {
    const missing = await alice.post('/console/issue/preview', { ...choices(), product: '' });
    expect(missing.status).toBe(400);
    expect(missing.html).toMatch(/id="product-error">choose a product</);
    expect(missing.html).toMatch(/id="product"[^>]*aria-invalid="true"/);
    const country = await alice.post('/console/issue/preview', { ...choices(), countryOfProduction: 'Australia' });
    expect(country.status).toBe(400);
    expect(country.html).toContain('id="countryOfProduction-error">must be a two-letter ISO 3166 country code<');
    expect(country.html).toContain('value="Australia"');
  });

  it('lists the credential, suspends and reinstates it, refuses a stale version, revokes it and deletes the record', async () => {
    const preview = await alice.post('/console/issue/preview', choices());
    const key = preview.html.match(/name="idempotencyKey" value="([0-9a-f-]{36})"/)![1]!;
    const issued = await alice.post('/console/issue', { ...choices(), idempotencyKey: key });
    const id = issued.html.match(/href="\/console\/credentials\/([^"]+)"/)![1]!;
    const list = await alice.get('/console/credentials?credentialType=DigitalProductPassport');
    expect(list.html).toContain(`/console/credentials/${id}`);
    expect((await alice.get('/console/credentials?credentialType=DigitalFacilityRecord')).html).not.toContain(`/console/credentials/${id}`);

    const versionOf = (html: string, purpose: string) => html.match(new RegExp(`name="purpose" value="${purpose}"/><input type="hidden" name="value" value="[a-z]+"/><input type="hidden" name="version" value="(\\d+)"`))![1]!;
    const page = await alice.get(`/console/credentials/${id}`);
    const suspendVersion = versionOf(page.html, 'suspension');
    const suspended = await alice.post(`/console/credentials/${id}/status`, { purpose: 'suspension', value: 'true', version: suspendVersion });
    expect(suspended.status).toBe(303);
    const after = await alice.get(suspended.location!);
    expect(after.html).toContain('id="credential-status">Suspended<');
    expect(after.html).toContain('>Reinstate<');
    // The page the person had open is stale now: its version is refused, nothing changes.
    const stale = await alice.post(`/console/credentials/${id}/status`, { purpose: 'suspension', value: 'false', version: suspendVersion });
    expect(stale.status).toBe(409);
    expect((await alice.get(`/console/credentials/${id}`)).html).toContain('id="credential-status">Suspended<');
    const reinstated = await alice.post(`/console/credentials/${id}/status`, { purpose: 'suspension', value: 'false', version: versionOf(after.html, 'suspension') });
    expect(reinstated.status).toBe(303);
    const active = await alice.get(`/console/credentials/${id}`);
    expect(active.html).toContain('id="credential-status">Active<');
    const revoked = await alice.post(`/console/credentials/${id}/status`, { purpose: 'revocation', value: 'true', version: versionOf(active.html, 'revocation') });
    expect(revoked.status).toBe(303);
    const final = await alice.get(`/console/credentials/${id}`);
    expect(final.html).toContain('id="credential-status">Revoked<');
    expect(final.html).not.toContain('>Reinstate<');

    // Another person's console: the credential is a 404 for every action, and stays as it is.
    const bob = await signInToConsole(rig.t.url, 'bob');
    const missing = await bob.get('/console/credentials/nosuchcredential00000000');
    const foreign = await bob.get(`/console/credentials/${id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.html.replace(/nonce="[^"]+"|[0-9a-f]{64}/g, '')).toBe(missing.html.replace(/nonce="[^"]+"|[0-9a-f]{64}/g, ''));
    expect((await bob.post(`/console/credentials/${id}/status`, { purpose: 'suspension', value: 'true', version: '0' })).status).toBe(404);
    expect((await bob.post(`/console/credentials/${id}/delete`, {})).status).toBe(404);
    expect((await bob.post('/console/issue/preview', { ...choices() })).status).toBe(404);

    const deleted = await alice.post(`/console/credentials/${id}/delete`, {});
    expect(deleted.status).toBe(303);
    expect((await alice.get(`/console/credentials/${id}`)).status).toBe(404);
  });

  it('creates a managed DID, shows its document, verifies it with each check, makes it the default', async () => {
    const refused = await alice.post('/console/dids/new', { type: 'MANAGED', alias: '' });
    expect(refused.status).toBe(400);
    expect(refused.html).toMatch(/id="alias-error">/);
    const created = await alice.post('/console/dids/new', { type: 'MANAGED', alias: 'console-made', name: 'Console <DID>' });
    expect(created.status).toBe(303);
    const page = await alice.get(created.location!);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Console &lt;DID&gt;');
    expect(page.html).toMatch(/id="did-document">[^<]*verificationMethod/);
    const verified = await alice.post(`${created.location}/verify`, {});
    expect(verified.status).toBe(200);
    expect(verified.html).toMatch(/<li><strong>[^<]+: (PASSED|FAILED)<\/strong>/);
    const madeDefault = await alice.post(`${created.location}/default`, {});
    expect(madeDefault.status).toBe(303);
    expect((await alice.get('/console/dids')).html).toContain('Console &lt;DID&gt;</a> (your default)');
    const bob = await signInToConsole(rig.t.url, 'bob');
    expect((await bob.get(created.location!)).status).toBe(404);
    expect((await bob.post(`${created.location}/default`, {})).status).toBe(404);
  });

  it('attaches the chosen render template and shows the payload rendered through it, values escaped', async () => {
    const template = await apiAs(alice, rig.t.url, 'POST', '/render-templates', {
      name: 'Passport card',
      dataModelId: DPP_070,
      renderMethodType: 'RenderTemplate2024',
      template: '<h1 id="card">{{credentialSubject.name}}</h1><p>{{credentialSubject.countryOfProduction.countryCode}}</p>',
    });
    const [product] = await apiAs(alice, rig.t.url, 'POST', '/products', [{ name: 'Cell <b>B2</b>', level: 'MODEL' }]);
    const form = await alice.get(`/console/issue?dataModelId=${DPP_070}`);
    expect(form.html).toContain('Passport card');
    const preview = await alice.post('/console/issue/preview', { ...choices(), product: product.id, renderTemplateId: template.id });
    expect(preview.status).toBe(200);
    // The frame's srcdoc holds the rendered template (attribute-escaped once more by the page).
    const srcdoc = preview.html.match(/<iframe class="rendered" sandbox="" srcdoc="([^"]*)"/)![1]!;
    expect(srcdoc).toContain('&lt;h1 id=&quot;card&quot;&gt;Cell &amp;lt;b&amp;gt;B2&amp;lt;/b&amp;gt;&lt;/h1&gt;');
    const json = preview.html.match(/<pre id="payload-json">([\s\S]*?)<\/pre>/)![1]!.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    expect(JSON.parse(json).renderMethod).toEqual([
      { type: ['RenderTemplate2024'], name: 'Passport card', mediaType: 'text/html', url: template.storageUrl ?? expect.any(String), digestMultibase: template.digestMultibase ?? expect.any(String) },
    ]);
    const issued = await alice.post('/console/issue', { ...choices(), product: product.id, renderTemplateId: template.id });
    expect(issued.status).toBe(201);
    expect(issued.html).toContain('Cell &amp;lt;b&amp;gt;B2');
    // Another tenant's template id in the form is a 404 naming the field.
    const bob = await signInToConsole(rig.t.url, 'bob');
    const bobData = await consoleMasterData(bob, rig.t.url, { organisation: 'Bob Co' });
    const foreign = await bob.post('/console/issue/preview', { dataModelId: DPP_070, organisation: bobData.organisation.id, facility: bobData.facility.id, product: bobData.product.id, countryOfProduction: 'AU', issuerDid: bobData.did.id, renderTemplateId: template.id });
    expect(foreign.status).toBe(404);
  });
});
