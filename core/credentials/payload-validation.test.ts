import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../../db/client.ts';
import { SYSTEM_TENANT_ID } from '../../db/system-tenant.ts';
import { createTestDatabase, type TestDatabase } from '../../test/rig/databases.ts';
import { applySchemeDocuments } from '../conformity/scheme-document.ts';
import { GuardedFetchError, type Fetcher } from '../net/fetcher.ts';
import type { DocumentSettings } from '../settings/document-settings.ts';
import { createBundledArtefacts } from './bundled-artefacts.ts';
import { createDocumentSource, type DocumentSource } from './document-source.ts';
import { createJsonLdExpansion } from './jsonld-expansion.ts';
import { createPayloadChecks, resolvedDataModel, validateCredentialPayload, type ResolvedDataModel } from './payload-validation.ts';
import { COPPERMARK_SCHEME } from './test-support/conformity-catalogue.ts';
import { documentSettings, offlineFetcher, readSample } from './test-support/offline.ts';

const DPP_070 = resolvedDataModel({ credentialType: 'DigitalProductPassport', version: '0.7.0', schemaUrl: 'https://untp.unece.org/artefacts/schema/v0.7.0/dpp/DigitalProductPassport.json' });
const DPP_061 = resolvedDataModel({ credentialType: 'DigitalProductPassport', version: '0.6.1', schemaUrl: 'https://test.uncefact.org/vocabulary/untp/dpp/untp-dpp-schema-0.6.1.json' });
const DCC_070 = resolvedDataModel({ credentialType: 'DigitalConformityCredential', version: '0.7.0', schemaUrl: 'https://untp.unece.org/artefacts/schema/v0.7.0/dcc/ConformityCredential.json' });
const DCC_061 = resolvedDataModel({ credentialType: 'DigitalConformityCredential', version: '0.6.1', schemaUrl: 'https://test.uncefact.org/vocabulary/untp/dcc/untp-dcc-schema-0.6.1.json' });
const DPP_SAMPLE_070 = '0.7.0-prerelease/dpp/DigitalProductPassport_instance.json';
const DPP_SAMPLE_061 = '0.6.1/untp-dpp-instance-0.6.1.json';
const EXTENSION_SCHEMA = 'https://schemas.battery.example/passport/1.0/schema.json';
const CUSTOM_CONTEXT = 'https://contexts.battery.example/passport/1.0/';

/** Offline for the published hosts; a tenant's own extension host answers from this table. */
const extensionHost = (documents: Record<string, { status: number; body: string }>, calls: string[] = []): Fetcher => async (url) => {
  calls.push(url);
  const answer = documents[url];
  if (!answer) throw new GuardedFetchError('network', `Could not resolve ${new URL(url).hostname}`);
  return new Response(answer.body, { status: answer.status });
};

let database: TestDatabase;
let handle: DatabaseHandle;
const checks = createPayloadChecks(offlineFetcher(), documentSettings());
const validate = (dataModel: ResolvedDataModel, payload: unknown, payloadChecks = checks, tenantId = 'tenant-a') =>
  validateCredentialPayload({ db: handle.db, payloadChecks }, { tenantId, dataModel, payload });

beforeAll(async () => {
  database = await createTestDatabase();
  handle = connectDatabase(database.url, { max: 2 });
  await applySchemeDocuments(handle.db, SYSTEM_TENANT_ID, [COPPERMARK_SCHEME]);
});
afterAll(async () => {
  await handle.close();
  await database.drop();
});

describe('validateCredentialPayload', () => {
  it('accepts a valid 0.7.0 DPP and a 0.6.1 DPP side by side, without warnings', async () => {
    expect(await validate(DPP_070, readSample(DPP_SAMPLE_070))).toEqual({ warnings: [] });
    expect(await validate(DPP_061, readSample(DPP_SAMPLE_061))).toEqual({ warnings: [] });
  });

  it('returns conformity warnings for a DCC 0.7.0 and still accepts it; 0.6.x gets no conformity checks', async () => {
    const result = await validate(DCC_070, readSample('0.7.0-prerelease/dcc/ConformityCredential_smelter_instance.json'));
    expect(result.warnings.map((w) => w.code)).toEqual(['conformity-criterion.not-in-profile', 'conformity-criterion.not-in-profile']);
    expect(await validate(DCC_061, readSample('0.6.1/untp-dcc-instance-0.6.1.json'))).toEqual({ warnings: [] });
  });

  it.each([null, [], 'text', 3])('refuses a payload that is not an object (%j)', async (payload) => {
    await expect(validate(DPP_070, payload)).rejects.toMatchObject({ status: 400, code: 'VALIDATION_FAILED', message: 'credentialPayload: must be a JSON object' });
  });
});

describe('JSON Schema refusals name the failing place', () => {
  it('a wrong type deep in the subject', async () => {
    const payload = readSample(DPP_SAMPLE_070) as { credentialSubject: Record<string, unknown> };
    payload.credentialSubject.name = 42;
    await expect(validate(DPP_070, payload)).rejects.toMatchObject({
      status: 400,
      code: 'SCHEMA_DOCUMENT_INVALID',
      message: expect.stringMatching(/^credentialPayload\/credentialSubject\/name: Instance type "number" is invalid\. Expected "string"\. \(schema https:\/\/untp\.unece\.org\/.*DigitalProductPassport\.json\)$/),
      extra: { pointer: '/credentialSubject/name' },
    });
  });

  it('a missing required member, at the object that lacks it', async () => {
    const payload = readSample(DPP_SAMPLE_070);
    delete payload.credentialSubject;
    await expect(validate(DPP_070, payload)).rejects.toMatchObject({ code: 'SCHEMA_DOCUMENT_INVALID', message: expect.stringMatching(/^credentialPayload: .*"credentialSubject"/), extra: { pointer: '' } });
  });

  it('an extension validates against its parent schema and its own', async () => {
    const extensionSchema = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { credentialSubject: { type: 'object', required: ['batteryPassportId'] } } };
    const payloadChecks = createPayloadChecks(extensionHost({ [EXTENSION_SCHEMA]: { status: 200, body: JSON.stringify(extensionSchema) } }), documentSettings());
    const extension = resolvedDataModel(
      { credentialType: 'BatteryPassport', version: '1.0', schemaUrl: EXTENSION_SCHEMA },
      { credentialType: 'DigitalProductPassport', version: '0.7.0', schemaUrl: DPP_070.schemaUrls[0]! },
    );
    expect(extension).toEqual({ credentialType: 'BatteryPassport', version: '1.0', schemaUrls: [DPP_070.schemaUrls[0], EXTENSION_SCHEMA], core: { credentialType: 'DigitalProductPassport', version: '0.7.0' } });
    await expect(validate(extension, readSample(DPP_SAMPLE_070), payloadChecks)).rejects.toMatchObject({
      code: 'SCHEMA_DOCUMENT_INVALID',
      message: `credentialPayload/credentialSubject: Instance does not have required property "batteryPassportId". (schema ${EXTENSION_SCHEMA})`,
    });
    const broken = readSample(DPP_SAMPLE_070) as { credentialSubject: Record<string, unknown> };
    broken.credentialSubject.name = 42;
    await expect(validate(extension, broken, payloadChecks)).rejects.toMatchObject({ extra: { pointer: '/credentialSubject/name' }, message: expect.stringContaining('DigitalProductPassport.json') });
  });

  it('a schema that cannot be obtained: SCHEMA_FETCH_FAILED naming it', async () => {
    const payloadChecks = createPayloadChecks(offlineFetcher(), documentSettings({ bundledArtefacts: false }));
    await expect(validate(DPP_070, readSample(DPP_SAMPLE_070), payloadChecks)).rejects.toMatchObject({
      status: 400,
      code: 'SCHEMA_FETCH_FAILED',
      message: `credentialPayload: schema ${DPP_070.schemaUrls[0]}: host unreachable (Could not resolve untp.unece.org) and bundled artefacts are turned off`,
    });
  });
});

describe('JSON-LD refusals', () => {
  it('a term no context defines (0.6.1), at its place; pointer segments are escaped', async () => {
    const payload = readSample(DPP_SAMPLE_061) as { credentialSubject: Record<string, unknown> };
    payload.credentialSubject['colour/shade~tone'] = 'red';
    await expect(validate(DPP_061, payload)).rejects.toMatchObject({
      status: 400,
      code: 'JSONLD_DOCUMENT_INVALID',
      message: 'credentialPayload/credentialSubject/colour~1shade~0tone: "colour/shade~tone" is not defined by the credential\'s @context',
      extra: { pointer: '/credentialSubject/colour~1shade~0tone' },
    });
  });

  it('a term in an untyped object where the 0.7.0 vocabulary does not reach', async () => {
    const payload = readSample(DPP_SAMPLE_070);
    payload.relatedNotes = { remark: 'not in the vocabulary' };
    await expect(validate(DPP_070, payload)).rejects.toMatchObject({ code: 'JSONLD_DOCUMENT_INVALID', extra: { pointer: '/relatedNotes/remark' } });
  });

  it('a type that is neither a defined term nor an absolute IRI, at its place', async () => {
    const payload = readSample(DPP_SAMPLE_061) as { credentialSubject: { type: string[] } };
    payload.credentialSubject.type = [...payload.credentialSubject.type, 'Gadget'];
    await expect(validate(DPP_061, payload)).rejects.toMatchObject({
      code: 'JSONLD_DOCUMENT_INVALID',
      message: expect.stringMatching(/^credentialPayload\/credentialSubject\/type\/\d+: "Gadget" is neither an absolute IRI nor a term the @context defines/),
    });
  });

  it('a context that cannot be obtained: JSONLD_CONTEXT_FETCH_FAILED (unreachable without fallback, or refused by its host)', async () => {
    const schemaOnly = await createBundledArtefacts().lookup(DPP_070.schemaUrls[0]!);
    const host = extensionHost({ [DPP_070.schemaUrls[0]!]: { status: 200, body: JSON.stringify(schemaOnly) }, [CUSTOM_CONTEXT]: { status: 404, body: '{}' } });
    const withoutFallback = createPayloadChecks(host, documentSettings({ bundledArtefacts: false }));
    await expect(validate(DPP_070, readSample(DPP_SAMPLE_070), withoutFallback)).rejects.toMatchObject({
      code: 'JSONLD_CONTEXT_FETCH_FAILED',
      message: 'credentialPayload/@context: context https://www.w3.org/ns/credentials/v2: host unreachable (Could not resolve www.w3.org) and bundled artefacts are turned off',
      extra: { pointer: '/@context' },
    });
    const payload = readSample(DPP_SAMPLE_070) as { '@context': string[] };
    payload['@context'].push(CUSTOM_CONTEXT);
    await expect(validate(DPP_070, payload, createPayloadChecks(host, documentSettings()))).rejects.toMatchObject({
      code: 'JSONLD_CONTEXT_FETCH_FAILED',
      message: `credentialPayload/@context: context ${CUSTOM_CONTEXT}: HTTP 404`,
    });
  });

  it('a broken context is refused at @context', async () => {
    const host = extensionHost({ [CUSTOM_CONTEXT]: { status: 200, body: JSON.stringify({ '@context': { battery: 5 } }) } });
    const payload = readSample(DPP_SAMPLE_070) as { '@context': string[] };
    payload['@context'].push(CUSTOM_CONTEXT);
    await expect(validate(DPP_070, payload, createPayloadChecks(host, documentSettings()))).rejects.toMatchObject({
      code: 'JSONLD_DOCUMENT_INVALID',
      message: expect.stringMatching(/^credentialPayload\/@context: invalid term definition: /),
      extra: { pointer: '/@context' },
    });
  });
});

describe('processed contexts follow CONTEXT_CACHE_TTL_MS', () => {
  /** The expansion's context loads, counted on the way to a real (offline, bundled) document source. */
  const countingExpansion = (settings: DocumentSettings) => {
    const source = createDocumentSource(offlineFetcher(), settings, createBundledArtefacts());
    const loads: string[] = [];
    const counted: DocumentSource = { get: (url, kind) => (loads.push(url), source.get(url, kind)) };
    return { loads, expand: createJsonLdExpansion(counted, settings) };
  };

  it('are kept: a second expansion loads no context at all', async () => {
    const { loads, expand } = countingExpansion(documentSettings());
    await expand(readSample(DPP_SAMPLE_070));
    expect(loads).toEqual(['https://www.w3.org/ns/credentials/v2', 'https://vocabulary.uncefact.org/untp/0.7.0/context/']);
    await expand(readSample(DPP_SAMPLE_070));
    expect(loads).toHaveLength(2);
  });

  it('with a TTL of 0, every expansion loads its contexts again', async () => {
    const { loads, expand } = countingExpansion(documentSettings({ contextCacheTtlMs: 0 }));
    await expand(readSample(DPP_SAMPLE_070));
    await expand(readSample(DPP_SAMPLE_070));
    expect(loads.filter((u) => u === 'https://vocabulary.uncefact.org/untp/0.7.0/context/')).toHaveLength(2);
  });
});
