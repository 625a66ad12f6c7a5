import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVcService, type VcService } from './vc-harness.ts';

let vc: VcService;
beforeAll(async () => {
  vc = await startVcService();
});
afterAll(() => vc.stop());

const PROTECTED = [
  '/v2/credentials/issue',
  ...[
    'didManagerCreate',
    'didManagerGet',
    'didManagerFind',
    'didManagerDelete',
    'resolveDid',
    'routeVerificationCredential',
    'issueBitstringStatusList',
    'setBitstringStatus',
    'checkBitstringStatus',
    'noSuchMethod',
  ].map((m) => `/agent/${m}`),
];

describe('VC service auth: Bearer API_KEY on /v2 and /agent, documents and status lists public', () => {
  it('every protected route answers 401 without a token, with a wrong one, or with another scheme, and does nothing', async () => {
    for (const path of PROTECTED) {
      for (const headers of [{} as Record<string, string>, { authorization: 'Bearer wrong-key' }, { authorization: `Basic ${vc.apiKey}` }, { authorization: 'Bearer' }]) {
        const res = await vc.call('POST', path, { key: null, headers, json: { alias: 'sneaky.example.com' } });
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(401);
        expect(res.body).toEqual({ error: 'unauthorized: send Authorization: Bearer <API_KEY>' });
      }
    }
    expect((await vc.agent('didManagerFind', {})).body).toEqual([]);
  });

  it('with the key, an unknown agent method is 404; documents, status lists and health need no key', async () => {
    expect((await vc.agent('keyManagerDeleteEverything', {})).status).toBe(404);
    expect((await vc.agent('constructor', {})).status).toBe(404);
    const { did } = (await vc.agent('didManagerCreate', { alias: `127.0.0.1:${new URL(vc.url).port}` })).body;
    expect((await vc.call('GET', '/.well-known/did.json', { key: null })).body.id).toBe(did);
    const entry = (await vc.agent('issueBitstringStatusList', { statusPurpose: 'revocation', bitstringStatusIssuer: did })).body;
    expect((await vc.call('GET', new URL(entry.statusListCredential).pathname, { key: null })).status).toBe(200);
    expect((await vc.call('GET', '/health-check', { key: null })).text).toBe('OK');
  });
});
