import { count, sql } from 'drizzle-orm';
import { readdir } from 'node:fs/promises';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { issuanceDeps } from '../../core/credentials/issuance-deps.ts';
import { isDispatchedFault } from '../../core/credentials/issuance-fault.ts';
import { parseIssuanceRequest } from '../../core/credentials/issuance-request.ts';
import { issueCredential } from '../../core/credentials/issue-credential.ts';
import { MAX_CREDENTIAL_PAYLOAD_BYTES, payloadBytes } from '../../core/credentials/payload-limit.ts';
import { vcSignatureCount } from '../../test/rig/issuance-evidence.ts';
import { ISSUANCE_REQUEST_MAX_BYTES } from '../platform/request-body.ts';
import { credentials, libraryRecords } from '../../db/schema/index.ts';
import { insertDidRecord, insertVcInstance, unreachableVc } from '../../test/rig/did-fixtures.ts';
import { issueBody, SAMPLES, samplePayload, startIssuanceRig, storageConfig, type IssuanceRig } from '../../test/rig/credential-fixtures.ts';
import { freePort } from '../../test/rig/postgres-server.ts';
import { serviceInstances } from '../../db/schema/index.ts';
import { SYSTEM_SERVICE_IDS } from '../../core/settings/system-services.ts';

let rig: IssuanceRig;
let tenantId: string;

beforeAll(async () => {
  rig = await startIssuanceRig();
  tenantId = await rig.t.tenantOf('tenantA');
});
afterAll(async () => {
  await rig?.close();
});

const dpp = () => samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, rig.did);
const valid = (extra: Record<string, unknown> = {}) => issueBody('DigitalProductPassport', '0.7.0', dpp(), extra);
/** How many objects the storage service holds (its local directory). */
const storedObjects = async () => (await readdir(rig.storage.settings.localDirectory, { recursive: true, withFileTypes: true })).filter((e) => e.isFile() && !e.name.startsWith('corr.')).length;
/** The sample issued by another DID (the sample's issuer object kept). */
const issuedBy = (did: string) => issueBody('DigitalProductPassport', '0.7.0', samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, did));
const issue = (body: unknown, headers: Record<string, string> = {}) => rig.t.call('POST', '/api/v1/credentials', { token: rig.token, body, headers });
const recordCount = async () => {
  const [records] = await rig.t.db.select({ n: count() }).from(libraryRecords);
  const [issued] = await rig.t.db.select({ n: count() }).from(credentials);
  return { records: records!.n, issued: issued!.n };
};
/** Refused with this status, code and message start, and nothing recorded. */
const refused = async (body: unknown, status: number, code: string, message: string | RegExp, headers: Record<string, string> = {}) => {
  const before = await recordCount();
  const res = await issue(body, headers);
  expect(res.status, res.text).toBe(status);
  expect(res.body.code).toBe(code);
  if (typeof message === 'string') expect(res.body.error.startsWith(message), res.body.error).toBe(true);
  else expect(res.body.error).toMatch(message);
  expect(await recordCount()).toEqual(before);
  return res;
};

describe('POST /credentials: every field rule names its field', () => {
  const { credentialPayload: _p, ...withoutPayload } = issueBody('DigitalProductPassport', '0.7.0', {});
  it.each([
    ['credentialPayload missing', withoutPayload, 'credentialPayload: is required'],
    ['credentialPayload null', { ...withoutPayload, credentialPayload: null }, 'credentialPayload: must not be null'],
    ['credentialPayload an array', { ...withoutPayload, credentialPayload: [] }, 'credentialPayload: must be a JSON object'],
    ['credentialType blank', { ...issueBody(' ', '0.7.0', {}) }, 'credentialType: must contain a non-whitespace character'],
    ['credentialType not a string', { ...issueBody('x', '0.7.0', {}), credentialType: 7 }, 'credentialType: must be a string'],
    ['version missing', { credentialType: 'DigitalProductPassport', credentialPayload: {} }, 'version: is required'],
    ['statusPurposes empty', { statusPurposes: [] }, 'statusPurposes: must not be empty'],
    ['statusPurposes unknown', { statusPurposes: ['revocation', 'expiry'] }, 'statusPurposes[1]: must be one of revocation, suspension'],
    ['statusPurposes repeated', { statusPurposes: ['revocation', 'revocation'] }, 'statusPurposes[1]: must not repeat a purpose'],
    ['statusPurposes several while disabled', { statusPurposes: ['revocation', 'suspension'] }, 'statusPurposes: only one status purpose per credential is enabled'],
    ['tags not an array', { tags: 'a' }, 'tags: must be an array of strings'],
    ['tag grammar', { tags: ['ok', 'Not OK'] }, 'tags[1]: must be lower-case letters and digits in words joined by single hyphens'],
    ['tag repeated', { tags: ['a', 'b', 'a'] }, 'tags[2]: must not repeat a tag; duplicates tags[0]'],
    ['tag too long', { tags: ['x'.repeat(65)] }, 'tags[0]: must be at most 64 characters'],
    ['too many tags', { tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, 'tags: must hold at most 10 tags'],
    ['storageOptions null', { storageOptions: null }, 'storageOptions: must not be null'],
    ['storageOptions.encrypt not boolean', { storageOptions: { encrypt: 'no' } }, 'storageOptions.encrypt: must be a boolean'],
    ['storageOptions.serviceInstanceId empty', { storageOptions: { serviceInstanceId: '' } }, 'storageOptions.serviceInstanceId: must not be empty'],
    ['publishingOptions null', { publishingOptions: null }, 'publishingOptions: must not be null'],
    ['publishingOptions.publish not boolean', { publishingOptions: { publish: 'yes' } }, 'publishingOptions.publish: must be a boolean'],
    ['publishingOptions.linkType blank', { publishingOptions: { linkType: '  ' } }, 'publishingOptions.linkType: must contain a non-whitespace character'],
    ['machineVerificationUrl not http', { publishingOptions: { machineVerificationUrl: 'ftp://x.example.com' } }, 'publishingOptions.machineVerificationUrl: must use http or https'],
    ['humanVerificationUrl with userinfo', { publishingOptions: { humanVerificationUrl: 'https://u:p@x.example.com' } }, 'publishingOptions.humanVerificationUrl: must not contain a username or password'],
    ['hreflang malformed', { publishingOptions: { hreflang: ['en', 'not a tag'] } }, 'publishingOptions.hreflang[1]: must be a well-formed BCP 47 language tag'],
    ['accessRole unknown', { publishingOptions: { accessRole: ['untp:accessRole#Nobody'] } }, 'publishingOptions.accessRole[0]: must be one of'],
  ])('%s → 400 VALIDATION_FAILED', async (_name, patch, message) => {
    const body = 'credentialPayload' in patch || 'credentialType' in patch || 'version' in patch ? patch : valid(patch as Record<string, unknown>);
    await refused(body, 400, 'VALIDATION_FAILED', message);
  });

  it('a payload carrying credentialStatus is 400 CREDENTIAL_STATUS_NOT_ACCEPTED', async () => {
    await refused(issueBody('DigitalProductPassport', '0.7.0', { ...dpp(), credentialStatus: { type: 'BitstringStatusListEntry' } }), 400, 'CREDENTIAL_STATUS_NOT_ACCEPTED', 'credentialPayload.credentialStatus: must not be sent');
  });

  it('an unparseable body is 400 Invalid JSON body', async () => {
    const res = await rig.t.call('POST', '/api/v1/credentials', { token: rig.token, rawBody: '{"credentialType":' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Invalid JSON body');
  });

  it.each([
    ['blank', '   ', 'Idempotency-Key: must not be blank'],
    ['too long', 'k'.repeat(256), 'Idempotency-Key: must be at most 255 characters'],
    ['not printable ASCII', 'clé', 'Idempotency-Key: must be printable ASCII'],
  ])('an Idempotency-Key %s is 400 naming the header', async (_name, key, message) => {
    await refused(valid(), 400, 'VALIDATION_FAILED', message, { 'Idempotency-Key': key });
  });
});

describe('POST /credentials: data model, payload and issuer', () => {
  it('an unknown credential type or version is 400 DATA_MODEL_NOT_FOUND naming credentialType', async () => {
    await refused(issueBody('DigitalPassport', '0.7.0', dpp()), 400, 'DATA_MODEL_NOT_FOUND', 'credentialType: no data model for DigitalPassport version 0.7.0');
    await refused(issueBody('DigitalProductPassport', '9.9.9', dpp()), 400, 'DATA_MODEL_NOT_FOUND', 'credentialType: no data model for DigitalProductPassport version 9.9.9');
  });

  it('a payload failing its UNTP schema is 400 SCHEMA_DOCUMENT_INVALID with the pointer', async () => {
    const payload = dpp();
    delete (payload.credentialSubject as Record<string, unknown>).name;
    const res = await refused(issueBody('DigitalProductPassport', '0.7.0', payload), 400, 'SCHEMA_DOCUMENT_INVALID', /^credentialPayload\/credentialSubject/);
    expect(res.body.pointer).toMatch(/^\/credentialSubject/);
  });

  it('a term the contexts do not define is 400 JSONLD_DOCUMENT_INVALID with the pointer', async () => {
    const payload = { ...dpp(), relatedNotes: { remark: 'not in the vocabulary' } };
    const res = await refused(issueBody('DigitalProductPassport', '0.7.0', payload), 400, 'JSONLD_DOCUMENT_INVALID', 'credentialPayload/relatedNotes/remark:');
    expect(res.body.pointer).toBe('/relatedNotes/remark');
  });

  it.each([
    ['@context a number', { '@context': 5 }],
    ['@context an unreachable URL', { '@context': ['https://www.w3.org/ns/credentials/v2', 'https://contexts.invalid/none.jsonld'] }],
    ['issuer a number', { issuer: 5 }],
    ['credentialSubject an empty array', { credentialSubject: [] }],
    ['validFrom not a date', { validFrom: 'soon' }],
    ['type a string', { type: 'DigitalProductPassport' }],
    ['a context entry whose term @id is not a string', { '@context': ['https://www.w3.org/ns/credentials/v2', { bad: { '@id': 5 } }] }],
  ])('a payload with %s is a 400, never a 500', async (_name, patch) => {
    const before = await recordCount();
    const res = await issue(issueBody('DigitalProductPassport', '0.7.0', { ...dpp(), ...patch }));
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toMatch(/^credentialPayload/);
    expect(await recordCount()).toEqual(before);
  });

  it('a payload without an issuer fails its schema first (the issuer rule comes after the payload checks)', async () => {
    const { issuer: _i, ...withoutIssuer } = dpp();
    const res = await refused(issueBody('DigitalProductPassport', '0.7.0', withoutIssuer), 400, 'SCHEMA_DOCUMENT_INVALID', 'credentialPayload');
    expect(res.body.error).toContain('issuer');
  });

  it('an issuer DID that is unknown or another tenant’s is refused alike, before anything is signed', async () => {
    const unknown = await refused(issuedBy('did:web:nobody.example.com'), 400, 'ISSUER_DID_NOT_REGISTERED', 'credentialPayload.issuer:');
    const foreign = await refused(issuedBy(await rig.didOf('tenantB')), 400, 'ISSUER_DID_NOT_REGISTERED', 'credentialPayload.issuer:');
    expect(foreign.body).toEqual(unknown.body);
  });

  it('a DID without a VC service instance is 400 ISSUER_DID_SERVICE_INSTANCE_MISSING', async () => {
    const orphan = await insertDidRecord(rig.t.db, { tenantId, did: 'did:web:orphan.example.com', serviceInstanceId: null });
    await refused(issuedBy(orphan.did), 400, 'ISSUER_DID_SERVICE_INSTANCE_MISSING', 'credentialPayload.issuer:');
  });

  it('an unknown storage instance, or one that is not a storage instance, is 404 SERVICE_INSTANCE_NOT_FOUND', async () => {
    const unknown = await refused(valid({ storageOptions: { serviceInstanceId: 'cnosuchinstance0000000000' } }), 404, 'SERVICE_INSTANCE_NOT_FOUND', 'storageOptions.serviceInstanceId: service instance not found');
    const vcInstance = await insertVcInstance(rig.t.db, rig.t.services.secretBox, tenantId, rig.vc);
    const wrongType = await refused(valid({ storageOptions: { serviceInstanceId: vcInstance.id } }), 404, 'SERVICE_INSTANCE_NOT_FOUND', 'storageOptions.serviceInstanceId');
    expect(wrongType.body).toEqual(unknown.body);
  });

  it('a request with several faults is refused for the first in step order: data model, payload, issuer, storage', async () => {
    const noStorage = { storageOptions: { serviceInstanceId: 'cnosuchinstance0000000000' } };
    const strangerDpp = samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, 'did:web:nobody.example.com');
    const { name: _n, ...strangerSubject } = strangerDpp.credentialSubject as Record<string, unknown>;
    const invalidStrangerDpp = { ...strangerDpp, credentialSubject: strangerSubject };
    await refused(issueBody('DigitalPassport', '0.7.0', invalidStrangerDpp, noStorage), 400, 'DATA_MODEL_NOT_FOUND', 'credentialType:');
    await refused(issueBody('DigitalProductPassport', '0.7.0', invalidStrangerDpp, noStorage), 400, 'SCHEMA_DOCUMENT_INVALID', 'credentialPayload/credentialSubject');
    await refused(issueBody('DigitalProductPassport', '0.7.0', strangerDpp, noStorage), 400, 'ISSUER_DID_NOT_REGISTERED', 'credentialPayload.issuer:');
    await refused(valid(noStorage), 404, 'SERVICE_INSTANCE_NOT_FOUND', 'storageOptions.serviceInstanceId:');
  });
});

describe('POST /credentials: upstream failures', () => {
  it('the VC service down is 502 VC_UNAVAILABLE with nothing recorded or stored', async () => {
    const down = await insertVcInstance(rig.t.db, rig.t.services.secretBox, tenantId, await unreachableVc());
    const did = await insertDidRecord(rig.t.db, { tenantId, did: 'did:web:down.example.com', type: 'MANAGED', status: 'ACTIVE', serviceInstanceId: down.id });
    expect((await issue(valid())).status).toBe(201);
    const storedBefore = await storedObjects();
    await refused(issuedBy(did.did), 502, 'VC_UNAVAILABLE', 'The VC service is unavailable');
    expect(await storedObjects()).toBe(storedBefore);
    expect(storedBefore).toBeGreaterThan(0);
  });

  it('a DID whose key the VC service does not hold is 422 VC_REJECTED with nothing recorded', async () => {
    const imported = await rig.t.call('POST', '/api/v1/dids/import', {
      token: rig.token,
      body: { did: 'did:web:imported.example.com', method: 'DID_WEB', keyId: 'not-held', serviceInstanceId: SYSTEM_SERVICE_IDS.VC },
    });
    expect(imported.status, imported.text).toBe(201);
    await refused(issuedBy('did:web:imported.example.com'), 422, 'VC_REJECTED', /^The VC service refused to (sign|mint)/);
  });

  it('the largest payload (MAX_CREDENTIAL_PAYLOAD_BYTES) is signed, stored and recorded; one byte more is 413 naming credentialPayload before anything is signed', async () => {
    const padded = (bytes: number) => {
      const payload = { ...dpp(), name: '' };
      return { ...payload, name: 'x'.repeat(bytes - payloadBytes(payload)) };
    };
    const signaturesBefore = vcSignatureCount(rig.vc);
    const largest = await issue(issueBody('DigitalProductPassport', '0.7.0', padded(MAX_CREDENTIAL_PAYLOAD_BYTES)));
    expect(largest.status, largest.text.slice(0, 300)).toBe(201);
    expect(vcSignatureCount(rig.vc)).toBe(signaturesBefore + 1);
    const over = await refused(issueBody('DigitalProductPassport', '0.7.0', padded(MAX_CREDENTIAL_PAYLOAD_BYTES + 1)), 413, 'CREDENTIAL_PAYLOAD_TOO_LARGE', 'credentialPayload: must not exceed 524288 bytes');
    expect(over.status).toBe(413);
    expect(vcSignatureCount(rig.vc), 'nothing signed for the refused payload').toBe(signaturesBefore + 1);
  });

  it('a body too large to hold an issuable payload (5 MB) is 413 from its size, before it is parsed', async () => {
    const res = await issue(issueBody('DigitalProductPassport', '0.7.0', { ...dpp(), name: 'x'.repeat(5_000_000) }));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: `Request body exceeds ${ISSUANCE_REQUEST_MAX_BYTES} bytes`, code: 'REQUEST_BODY_TOO_LARGE' });
  });

  it('the storage service refusing connections after signing is 502 STORAGE_UNAVAILABLE, nothing recorded; the signed copy is discarded and its status entry logged unused', async () => {
    const [storage] = await rig.t.db
      .insert(serviceInstances)
      .values({ tenantId, serviceType: 'STORAGE', adapterType: 'STORAGE_ADAPTER', name: 'Down', configEncrypted: await rig.t.services.secretBox.encryptJson(storageConfig(`http://127.0.0.1:${await freePort()}`)) })
      .returning();
    const warn = vi.spyOn(rig.t.services.logger, 'warn');
    try {
      await refused(valid({ storageOptions: { serviceInstanceId: storage!.id } }), 502, 'STORAGE_UNAVAILABLE', 'The storage service is unavailable');
      expect(warn).toHaveBeenCalledWith('A signed credential was discarded: the storage service stored nothing', expect.objectContaining({ issuerDid: rig.did }));
      expect(warn).toHaveBeenCalledWith('Status entries left unused', expect.objectContaining({ issuerDid: rig.did, statusEntries: [expect.stringMatching(/^revocation http/)] }));
      expect(warn).not.toHaveBeenCalledWith('A credential was signed but could not be stored; it is not recorded', expect.anything());
    } finally {
      warn.mockRestore();
    }
  });
});

describe('GET /credentials: bad input', () => {
  it.each([
    ['isPublished=yes', 'isPublished: must be true or false'],
    ['limit=0', 'limit: must be a positive integer'],
    ['limit=1000', 'limit: must not exceed the maximum of 100'],
    ['offset=-1', 'offset: must be a non-negative integer'],
  ])('%s is 400 naming the parameter', async (query, message) => {
    const res = await rig.t.call('GET', `/api/v1/credentials?${query}`, { token: rig.token });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it('an unknown or malformed id is 404 on GET and DELETE', async () => {
    for (const id of ['cnosuchcredential00000000', 'verify-me', 'x'.repeat(300)]) {
      for (const method of ['GET', 'DELETE']) {
        const res = await rig.t.call(method, `/api/v1/credentials/${id}`, { token: rig.token });
        expect(res.status, `${method} ${id}`).toBe(404);
        expect(res.body).toEqual({ error: 'Credential not found', code: 'NOT_FOUND' });
      }
    }
  });
});

describe('issueCredential for batch items: whether a failure came after the sign request', () => {
  const issueDirect = async (body: unknown) => {
    const deps = issuanceDeps(rig.t.services);
    try {
      await issueCredential(deps, tenantId, parseIssuanceRequest(body, deps.issuance));
    } catch (error) {
      return error;
    }
    throw new Error('issued');
  };

  it('refusals, a VC service down before signing and a storage service refusing connections are not dispatched; storage timing out after receiving is', async () => {
    expect(isDispatchedFault(await issueDirect(issueBody('DigitalPassport', '0.7.0', dpp())))).toBe(false);
    const down = await insertVcInstance(rig.t.db, rig.t.services.secretBox, tenantId, await unreachableVc());
    const did = await insertDidRecord(rig.t.db, { tenantId, did: 'did:web:down-direct.example.com', type: 'MANAGED', status: 'ACTIVE', serviceInstanceId: down.id });
    const vcDown = await issueDirect(issuedBy(did.did));
    expect(vcDown).toMatchObject({ status: 502, code: 'VC_UNAVAILABLE' });
    expect(isDispatchedFault(vcDown)).toBe(false);
    const [storage] = await rig.t.db
      .insert(serviceInstances)
      .values({ tenantId, serviceType: 'STORAGE', adapterType: 'STORAGE_ADAPTER', name: 'Down too', configEncrypted: await rig.t.services.secretBox.encryptJson(storageConfig(`http://127.0.0.1:${await freePort()}`)) })
      .returning();
    const storageDown = await issueDirect(valid({ storageOptions: { serviceInstanceId: storage!.id } }));
    expect(storageDown).toMatchObject({ status: 502, code: 'STORAGE_UNAVAILABLE' });
    expect(isDispatchedFault(storageDown)).toBe(false);

    // A storage service that takes the request and never answers (the rig's fetcher gives up after 2 s).
    const held: Socket[] = [];
    const silent = createNetServer((socket) => void held.push(socket));
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', () => done()));
    try {
      const [hanging] = await rig.t.db
        .insert(serviceInstances)
        .values({ tenantId, serviceType: 'STORAGE', adapterType: 'STORAGE_ADAPTER', name: 'Silent', configEncrypted: await rig.t.services.secretBox.encryptJson(storageConfig(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`)) })
        .returning();
      const storageSilent = await issueDirect(valid({ storageOptions: { serviceInstanceId: hanging!.id } }));
      expect(storageSilent).toMatchObject({ status: 502, code: 'STORAGE_UNAVAILABLE' });
      expect(isDispatchedFault(storageSilent)).toBe(true);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise<void>((done) => silent.close(() => done()));
    }
  });

  it('a record that cannot be written after storing removes the stored copy (no orphan upstream) and is dispatched', async () => {
    expect((await issue(valid())).status).toBe(201);
    const deps = issuanceDeps(rig.t.services);
    const before = { ...(await recordCount()), stored: await storedObjects() };
    const failure = await issueCredential(deps, tenantId, parseIssuanceRequest(valid(), deps.issuance), {
      onRecorded: async () => {
        throw new Error('record write failed');
      },
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect(isDispatchedFault(failure)).toBe(true);
    expect(await recordCount()).toEqual({ records: before.records, issued: before.issued });
    expect(await storedObjects()).toBe(before.stored);
  });

  it('a status entry refused by the database rolls back the record and the issuance detail sent with it, and removes the stored copy', async () => {
    expect((await issue(valid())).status).toBe(201);
    const before = { ...(await recordCount()), stored: await storedObjects() };
    await rig.t.db.execute(sql.raw(`create function css_test_refuse_entry() returns trigger language plpgsql as $$ begin raise exception 'status entry refused'; end $$`));
    await rig.t.db.execute(sql.raw('create trigger css_test_refuse_entry before insert on credential_status_entries for each row execute function css_test_refuse_entry()'));
    const warn = vi.spyOn(rig.t.services.logger, 'warn');
    try {
      const res = await issue(valid());
      expect(res.status, res.text).toBe(500);
      expect(warn).toHaveBeenCalledWith('A credential was signed and stored but could not be recorded; removing the stored copy', expect.objectContaining({ issuerDid: rig.did }));
      expect(await recordCount()).toEqual({ records: before.records, issued: before.issued });
      expect(await storedObjects()).toBe(before.stored);
    } finally {
      warn.mockRestore();
      await rig.t.db.execute(sql.raw('drop trigger css_test_refuse_entry on credential_status_entries'));
      await rig.t.db.execute(sql.raw('drop function css_test_refuse_entry()'));
    }
    expect((await issue(valid())).status).toBe(201);
  });
});
