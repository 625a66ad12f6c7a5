import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueBody, SAMPLES, samplePayload, startIssuanceRig, type IssuanceRig } from '../../test/rig/credential-fixtures.ts';

let rig: IssuanceRig;

beforeAll(async () => {
  rig = await startIssuanceRig();
});
afterAll(async () => {
  await rig?.close();
});

const issue = (body: unknown, headers: Record<string, string> = {}) => rig.t.call('POST', '/api/v1/credentials', { token: rig.token, body, headers });

describe('POST /credentials', () => {
  it('issues a DPP 0.7.0', async () => {
    const res = await issue(issueBody('DigitalProductPassport', '0.7.0', samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, rig.did)));
    expect(res.status, res.text).toBe(201);
    const got = await rig.t.call('GET', `/api/v1/credentials/${res.body.credentialId}`, { token: rig.token });
    expect(got.status, got.text).toBe(200);
    expect(got.body).toMatchObject({ id: res.body.credentialId, credentialType: 'DigitalProductPassport', version: '0.7.0', issuerDid: rig.did, encrypted: true });
  });
});
