import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueBody, SAMPLES, samplePayload, startIssuanceRig, type IssuanceRig } from '../../test/rig/credential-fixtures.ts';

/**
 * End to end: a credential issued by POST /credentials, its status changed through the status routes,
 * and the public verification of its stored copy following each change.
 */
let rig: IssuanceRig;

beforeAll(async () => {
  rig = await startIssuanceRig({ CREDENTIAL_STATUS_MUTATION_ENABLED: 'true', CREDENTIAL_STATUS_MULTIPLE_PURPOSES_ENABLED: 'true' });
});
afterAll(async () => {
  await rig?.close();
});

const issue = async (statusPurposes: string[]) => {
  const payload = samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, rig.did);
  const res = await rig.t.call('POST', '/api/v1/credentials', { token: rig.token, body: issueBody('DigitalProductPassport', '0.7.0', payload, { statusPurposes }) });
  expect(res.status, res.text).toBe(201);
  const record = await rig.t.call('GET', `/api/v1/credentials/${res.body.credentialId}`, { token: rig.token });
  return { id: res.body.credentialId as string, uri: record.body.storageUri as string, decryptionKey: record.body.decryptionKey as string };
};
const verify = async (c: { uri: string; decryptionKey: string }) => {
  const res = await rig.t.call('POST', '/api/v1/credentials/verify', { body: { uri: c.uri, decryptionKey: c.decryptionKey } });
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const statusOf = async (id: string, query = '') => (await rig.t.call('GET', `/api/v1/credentials/${id}/status${query}`, { token: rig.token })).body;
const put = (id: string, purpose: string, value: boolean, version: number) =>
  rig.t.call('PUT', `/api/v1/credentials/${id}/status/${purpose}`, { token: rig.token, body: { value }, headers: { 'if-version': String(version) } });
interface EntryView {
  entryId: string;
  statusPurpose: string;
  version: number;
  value: boolean | null;
}
const entryOf = (view: { entries: EntryView[] }, purpose: string) => view.entries.find((e) => e.statusPurpose === purpose)!;
const publishedList = async (url: string) => (await fetch(url)).text();

describe('issued credential → status change → public verification', () => {
  it('revoked: verification says not verified with an error of type status; the published list changed', async () => {
    const credential = await issue(['revocation']);
    const view = await statusOf(credential.id);
    expect(view).toMatchObject({ capture: 'CAPTURED', attribution: { instanceId: expect.any(String), source: 'ISSUANCE' } });
    const entry = entryOf(view, 'revocation');
    expect((await verify(credential)).verified).toBe(true);
    const record = await rig.t.call('GET', `/api/v1/credentials/${credential.id}`, { token: rig.token });
    const listUrl = (record.body.statusEntries as { statusListCredential: string }[])[0]!.statusListCredential;
    const before = await publishedList(listUrl);

    const res = await put(credential.id, 'revocation', true, entry.version);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ entryId: entry.entryId, value: true });
    expect(await publishedList(listUrl)).not.toBe(before);
    const after = await verify(credential);
    expect(after.verified).toBe(false);
    expect(after.error).toMatchObject({ type: 'status' });
    expect((await statusOf(credential.id, '?fresh=true')).observed).toEqual([expect.objectContaining({ statusPurpose: 'revocation', value: true })]);
  });

  it('suspended: not verified (status); un-suspended: verified again; the revocation entry stays as it was', async () => {
    const credential = await issue(['revocation', 'suspension']);
    const entry = entryOf(await statusOf(credential.id), 'suspension');
    expect((await verify(credential)).verified).toBe(true);

    expect((await put(credential.id, 'suspension', true, entry.version)).status).toBe(200);
    const suspended = await verify(credential);
    expect(suspended.verified).toBe(false);
    expect(suspended.error).toMatchObject({ type: 'status' });

    const resumed = await put(credential.id, 'suspension', false, entry.version + 1);
    expect(resumed.status, resumed.text).toBe(200);
    expect((await verify(credential)).verified).toBe(true);
    const view = await statusOf(credential.id);
    expect(entryOf(view, 'suspension')).toMatchObject({ value: false, version: entry.version + 2, pending: null });
    expect(entryOf(view, 'revocation')).toMatchObject({ version: 1, pending: null });
  });
});
