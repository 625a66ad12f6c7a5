import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLES, samplePayload } from '../../test/rig/credential-fixtures.ts';
import { startForeignIssuer, type ForeignIssuer } from '../../test/rig/foreign-issuer.ts';
import { annotations, LIBRARY, startLibraryRig, type LibraryRig } from '../../test/rig/library-fixtures.ts';

/** The library verifies a supplier's credential that another issuer signed (test/rig/foreign-issuer.ts). */
let rig: LibraryRig;
let issuer: ForeignIssuer;
beforeAll(async () => {
  issuer = await startForeignIssuer();
  rig = await startLibraryRig({}, issuer.vcEnv);
});
afterAll(async () => {
  await rig?.close();
  await issuer?.close();
});

const storePublic = async (data: unknown) => {
  const res = await rig.storage.call('POST', '/api/v4/public', { json: { data, id: crypto.randomUUID(), bucket: 'documents' } });
  if (res.status !== 201) throw new Error(`not stored: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { uri: string }).uri;
};
const reverify = async (id: string) => {
  expect((await rig.t.call('POST', `${LIBRARY}/${id}/verify`, { token: rig.token })).status).toBe(202);
  await rig.verifyPending(id);
  return (await rig.get(id)).body;
};

describe('the library, a credential of another issuer', () => {
  it('registers and verifies it (their key, their status list); revoked on their list or list unreadable: not conformant', async () => {
    const entry = issuer.statusEntry('revocation');
    const credential = { ...samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, issuer.did), credentialStatus: entry };
    const sourceUrl = await storePublic(await issuer.envelope(credential, 'jwk2020-p256'));
    const res = await rig.register({ sourceUrl, annotations: annotations() });
    expect(res.status, res.text).toBe(201);
    await rig.verifyPending(res.body.id);
    const detail = (await rig.get(res.body.id)).body;
    expect(detail.verification).toMatchObject({ state: 'complete', summary: 'verified', checks: { proof: 'pass', status: 'pass', temporal: 'pass' } });
    expect(detail.credential).toMatchObject({ issuerDid: issuer.did });

    issuer.setStatus(entry, true);
    expect((await reverify(res.body.id)).verification).toMatchObject({ summary: 'not_conformant', checks: { proof: 'pass', status: 'fail' } });
    issuer.setStatus(entry, false);
    issuer.lists.mode = 'down';
    expect((await reverify(res.body.id)).verification).toMatchObject({ summary: 'not_conformant', checks: { proof: 'pass', status: 'fail' } });
    issuer.lists.mode = 'jws';
    expect((await reverify(res.body.id)).verification).toMatchObject({ summary: 'verified', checks: { status: 'pass' } });
  });
});
