import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applySchemeDocuments } from '../../core/conformity/scheme-document.ts';
import { CORE_DATA_MODELS } from '../../core/data-models/core-data-models.ts';
import { organisations } from '../../db/schema/index.ts';
import { startIssuanceRig, type IssuanceRig } from '../../test/rig/credential-fixtures.ts';
import { apiAs, consoleMasterData, signInToConsole, type ConsoleUser } from '../../test/rig/console-user.ts';

const modelId = (credentialType: string, version: string) => CORE_DATA_MODELS.find((m) => m.credentialType === credentialType && m.version === version)!.id;

const SCHEME = 'https://scheme.example.com/battery-esg';
const PROFILE = 'https://scheme.example.com/battery-esg/profile/emissions';
const BOB_SCHEME = 'https://bob.example.com/own-scheme';

type Data = Awaited<ReturnType<typeof consoleMasterData>> & { anchoredOrganisation: { id: string } };

/** Each type's choices beside the common ones, the field a missing choice names, and one record of the type's subject. */
const CASES: { type: string; version: string; choices: (d: Data) => Record<string, string>; missing: string; subject: (p: Record<string, any>) => unknown }[] = [
  { type: 'DigitalProductPassport', version: '0.7.0', choices: (d) => ({ facility: d.facility.id, product: d.product.id, countryOfProduction: 'AU' }), missing: 'product', subject: (p) => p.credentialSubject.name },
  { type: 'DigitalProductPassport', version: '0.6.1', choices: (d) => ({ facility: d.facility.id, product: d.product.id, countryOfProduction: 'AU' }), missing: 'facility', subject: (p) => p.credentialSubject.product.name },
  {
    type: 'DigitalConformityCredential',
    version: '0.7.0',
    choices: () => ({ conformityScheme: SCHEME, conformityProfile: PROFILE, attestationName: 'Emissions certificate 7', attestationType: 'certification', assessorLevel: '3rdParty', assessmentLevel: 'scheme-cab' }),
    missing: 'conformityScheme',
    subject: (p) => p.credentialSubject.referenceProfile.name,
  },
  {
    type: 'DigitalConformityCredential',
    version: '0.6.1',
    choices: () => ({ conformityScheme: SCHEME, conformityProfile: PROFILE, attestationName: 'Emissions certificate 6', attestationType: 'testing', assessorLevel: 'Self', assessmentLevel: 'Verified' }),
    missing: 'conformityScheme',
    subject: (p) => p.credentialSubject.scope.owner.name,
  },
  {
    type: 'DigitalFacilityRecord',
    version: '0.7.0',
    choices: (d) => ({ facility: d.facility.id, countryOfOperation: 'au', streetAddress: '7 Plant Road', postalCode: '6000', addressLocality: 'Perth', addressRegion: 'WA' }),
    missing: 'facility',
    subject: (p) => p.credentialSubject.address.addressLocality,
  },
  { type: 'DigitalTraceabilityEvent', version: '0.7.0', choices: (d) => ({ facility: d.facility.id, product: d.product.id }), missing: 'facility', subject: (p) => p.credentialSubject[0].madeAtFacility.name },
  { type: 'DigitalIdentityAnchor', version: '0.7.0', choices: (d) => ({ organisation: d.anchoredOrganisation.id, registeredDate: '2019-07-01' }), missing: 'organisation', subject: (p) => p.credentialSubject.registeredId },
];

const EXPECTED_SUBJECT: Record<string, string> = {
  'DigitalProductPassport 0.7.0': 'Cell A1',
  'DigitalProductPassport 0.6.1': 'Cell A1',
  'DigitalConformityCredential 0.7.0': 'Emissions profile',
  'DigitalConformityCredential 0.6.1': 'Scheme Owner Ltd',
  'DigitalFacilityRecord 0.7.0': 'Perth',
  'DigitalTraceabilityEvent 0.7.0': 'Acme Plant 7',
  'DigitalIdentityAnchor 0.7.0': '09520000000017',
};

const unescape = (html: string) => html.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const payloadOf = (html: string) => JSON.parse(unescape(html.match(/<pre id="payload-json">([\s\S]*?)<\/pre>/)![1]!));

/** Issue 32: every core credential type is issued from the pickers, not only the product passport. */
describe('console: issue every credential type from master data', () => {
  let rig: IssuanceRig;
  let alice: ConsoleUser;
  let bob: ConsoleUser;
  let data: Data;
  let bobData: Awaited<ReturnType<typeof consoleMasterData>>;
  const tenantOf = async (organisationId: string) => (await rig.t.db.select({ tenantId: organisations.tenantId }).from(organisations).where(eq(organisations.id, organisationId)))[0]!.tenantId;

  beforeAll(async () => {
    rig = await startIssuanceRig();
    alice = await signInToConsole(rig.t.url, 'alice');
    bob = await signInToConsole(rig.t.url, 'bob');
    const base = await consoleMasterData(alice, rig.t.url);
    const lei = await apiAs(alice, rig.t.url, 'POST', '/identifiers', { schemeId: base.scheme.id, value: '09520000000017' });
    const [anchoredOrganisation] = await apiAs(alice, rig.t.url, 'POST', '/organisations', [{ name: 'Acme Holdings', primaryIdentifierId: lei.id }]);
    data = { ...base, anchoredOrganisation };
    bobData = await consoleMasterData(bob, rig.t.url, { organisation: 'Bob Co' });
    await applySchemeDocuments(rig.t.db, await tenantOf(data.organisation.id), [
      { id: SCHEME, name: 'Battery ESG Scheme', owner: { id: 'https://owner.example.com', name: 'Scheme Owner Ltd' }, includedProfile: [{ id: PROFILE, name: 'Emissions profile', version: '2.1.0', validFrom: '2025-03-01' }] },
    ]);
    await applySchemeDocuments(rig.t.db, await tenantOf(bobData.organisation.id), [{ id: BOB_SCHEME, name: 'Bob scheme', includedProfile: [] }]);
  }, 90_000);
  afterAll(() => rig?.close());

  const formOf = (c: (typeof CASES)[number], d: Data | typeof bobData, extra: Record<string, string> = {}) => ({
    dataModelId: modelId(c.type, c.version),
    organisation: d.organisation.id,
    issuerDid: d.did.id,
    encrypt: 'false',
    ...c.choices(d as Data),
    ...extra,
  });

  it.each(CASES.map((c) => [`${c.type} ${c.version}`, c] as const))('%s: the form has its pickers, the preview its payload, and the issued credential verifies', async (name, c) => {
    const form = await alice.get(`/console/issue?dataModelId=${modelId(c.type, c.version)}`);
    expect(form.status).toBe(200);
    for (const key of Object.keys(c.choices(data))) expect(form.html).toContain(`name="${key}"`);
    const preview = await alice.post('/console/issue/preview', formOf(c, data));
    expect(preview.status, preview.html.match(/field-error[^<]*<|notice[^<]*</g)?.join(' ')).toBe(200);
    const payload = payloadOf(preview.html);
    expect(payload.type).toEqual([c.type, 'VerifiableCredential']);
    expect(c.subject(payload)).toBe(EXPECTED_SUBJECT[name]);
    const key = preview.html.match(/name="idempotencyKey" value="([0-9a-f-]{36})"/)![1]!;
    const issued = await alice.post('/console/issue', { ...formOf(c, data), idempotencyKey: key });
    expect(issued.status).toBe(201);
    const id = issued.html.match(/href="\/console\/credentials\/([^"]+)"/)![1]!;
    const record = await apiAs(alice, rig.t.url, 'GET', `/credentials/${id}`, undefined, 200);
    expect(record).toMatchObject({ credentialType: c.type, version: c.version, encrypted: false });
    const checked = await rig.t.call('POST', '/api/v1/credentials/verify', { body: { uri: record.storageUri, digestMultibase: record.digestMultibase } });
    expect(checked.status, checked.text).toBe(200);
    expect(checked.body.verified).toBe(true);
  });

  it.each(CASES.map((c) => [`${c.type} ${c.version}`, c] as const))('%s: a missing picker value is a 400 naming the field beside it', async (_, c) => {
    const res = await alice.post('/console/issue/preview', formOf(c, data, { [c.missing]: '' }));
    expect(res.status).toBe(400);
    expect(res.html).toMatch(new RegExp(`id="${c.missing}-error">(choose|needs)`));
    expect(res.html).toMatch(new RegExp(`id="${c.missing}"[^>]*aria-invalid="true"`));
  });

  it.each(CASES.map((c) => [`${c.type} ${c.version}`, c] as const))('%s: another tenant’s entity id is a 404 and nothing is issued', async (_, c) => {
    const foreign: Record<string, Record<string, string>> = {
      organisation: { organisation: bobData.organisation.id },
      facility: { facility: bobData.facility.id },
      product: { product: bobData.product.id },
      conformityScheme: { conformityScheme: BOB_SCHEME, conformityProfile: '' },
    };
    const field = foreign[c.missing]!;
    const res = await alice.post('/console/issue/preview', formOf(c, data, field));
    expect(res.status).toBe(404);
    const issued = await alice.post('/console/issue', { ...formOf(c, data, field), idempotencyKey: crypto.randomUUID() });
    expect(issued.status).toBe(404);
  });

  it('a tenant without a DID is told so at the signing DID picker (an empty choice saying where to make one)', async () => {
    const carol = await signInToConsole(rig.t.url, `carol-${crypto.randomUUID().slice(0, 8)}`);
    const form = await carol.get(`/console/issue?dataModelId=${modelId('DigitalIdentityAnchor', '0.7.0')}`);
    expect(form.status).toBe(200);
    expect(form.html).toMatch(/<select[^>]*name="issuerDid"[^>]*>\s*<option value="">No DID yet: create one under DIDs<\/option>\s*<\/select>/);
  });

  it('lists a scheme’s profiles once the scheme is chosen (without scripts, the form posted again), and refuses a profile of another scheme', async () => {
    const dcc = modelId('DigitalConformityCredential', '0.7.0');
    const before = await alice.get(`/console/issue?dataModelId=${dcc}`);
    expect(before.html).toContain(`value="${SCHEME}"`);
    expect(before.html).not.toContain(`value="${PROFILE}"`);
    expect(before.html).toContain('Choose the scheme first');
    const after = await alice.post('/console/issue/choices', { dataModelId: dcc, conformityScheme: SCHEME });
    expect(after.status).toBe(200);
    expect(after.html).toMatch(new RegExp(`<option value="${PROFILE.replace(/[/.]/g, '\\$&')}"[^>]*>Emissions profile<`));
    expect(after.html).toMatch(/<select id="conformityScheme"[^>]*hx-post="\/console\/issue\/choices"/);
    // Bob sees neither Alice's scheme nor its profiles.
    const bobs = await bob.post('/console/issue/choices', { dataModelId: dcc, conformityScheme: SCHEME });
    expect(bobs.html).not.toContain(`value="${SCHEME}"`);
    expect(bobs.html).not.toContain(`value="${PROFILE}"`);
    const mismatched = await alice.post('/console/issue/preview', formOf(CASES[2]!, data, { conformityProfile: 'https://scheme.example.com/other/profile' }));
    expect(mismatched.status).toBe(404);
  });
});
