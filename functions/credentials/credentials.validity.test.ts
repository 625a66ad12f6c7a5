import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueBody, SAMPLES, samplePayload, startIssuanceRig, type IssuanceRig } from '../../test/rig/credential-fixtures.ts';

/** Issuance advises on a validity window a verifier will refuse, and issues all the same. */
let rig: IssuanceRig;
beforeAll(async () => {
  rig = await startIssuanceRig();
});
afterAll(() => rig?.close());

const issueWith = (window: Record<string, unknown>) =>
  rig.t.call('POST', '/api/v1/credentials', {
    token: rig.token,
    body: issueBody('DigitalProductPassport', '0.7.0', { ...samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, rig.did), ...window }),
  });
const codes = (res: { body: { warnings?: { code: string }[] } }) => (res.body.warnings ?? []).map((w) => w.code).filter((c) => c.startsWith('VALIDITY_'));

describe('POST /credentials: the validity window', () => {
  it.each([
    ['already over', { validFrom: '2020-01-01T00:00:00Z', validUntil: '2021-01-01T00:00:00Z' }, ['VALIDITY_ENDED']],
    ['not yet begun', { validFrom: '2999-01-01T00:00:00Z', validUntil: '2999-06-01T00:00:00Z' }, ['VALIDITY_NOT_STARTED']],
    ['inverted (and over)', { validFrom: '2021-01-01T00:00:00Z', validUntil: '2020-01-01T00:00:00Z' }, ['VALIDITY_INVERTED', 'VALIDITY_ENDED']],
    ['inverted in the future', { validFrom: '2999-06-01T00:00:00Z', validUntil: '2999-01-01T00:00:00Z' }, ['VALIDITY_INVERTED', 'VALIDITY_NOT_STARTED']],
  ])('%s: issued (201) with %j', async (_name, window, expected) => {
    const res = await issueWith(window);
    expect(res.status, res.text).toBe(201);
    expect(codes(res)).toEqual(expected);
    const warning = res.body.warnings.find((w: { code: string }) => w.code === expected[0]);
    expect(warning).toMatchObject({ message: expect.any(String), pointer: expect.stringMatching(/^\/valid(From|Until)$/) });
  });

  it('a window that includes now: no validity warning', async () => {
    const res = await issueWith({});
    expect(res.status, res.text).toBe(201);
    expect(codes(res)).toEqual([]);
  });
});
