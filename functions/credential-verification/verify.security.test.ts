import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pointVcInstance, unreachableVc } from '../../test/rig/did-fixtures.ts';
import { SYSTEM_SERVICE_IDS } from '../../test/rig/fixtures.ts';
import { callFrom } from '../../test/rig/call-from.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';
import { startSource, startVerifyRig, VERIFY_PATH, verifyQuery, type Source, type VerifyRig } from '../../test/rig/verify-rig.ts';

describe('public route, open to strangers', () => {
  let rig: VerifyRig;
  const logLines: string[] = [];
  beforeAll(async () => {
    // Every log line the app writes is kept, to prove no decryption key reaches one.
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void logLines.push(String(line)));
    rig = await startVerifyRig({ LOG_LEVEL: 'debug', VERIFY_MAX_CONCURRENCY: '1' });
  });
  afterAll(async () => {
    await rig.close();
    vi.restoreAllMocks();
  });

  it('GET and POST need no session or token, and a token that does not verify changes nothing', async () => {
    const stored = await rig.store(await rig.issue());
    const variants: (Record<string, string> | undefined)[] = [undefined, { authorization: 'Bearer not-a-token' }, { cookie: 'css_session=forged' }];
    for (const headers of variants) {
      const post = await rig.verify({ uri: stored.uri }, headers);
      expect(post.status, JSON.stringify(headers)).toBe(200);
      expect(post.body.verified).toBe(true);
      const get = await rig.t.call('GET', verifyQuery({ uri: stored.uri }), { headers });
      expect(get.status).toBe(200);
      expect(get.body.verified).toBe(true);
    }
    // Only this path is public: its neighbours still need a token.
    expect((await rig.t.call('GET', '/api/v1/credentials/verify-other')).status).toBe(401);
    expect((await rig.t.call('GET', '/api/v1/dids')).status).toBe(401);
  });

  it('VERIFY_MAX_CONCURRENCY: while the slots are taken, 429 VERIFY_BUSY with Retry-After; a slot frees when a verification ends, however it ends', async () => {
    const enveloped = await rig.issue();
    const held = rig.source.hold('/slow-credential', enveloped);
    const first = rig.verify({ uri: held.url });
    await held.arrived;
    const busy = await rig.verify({ uri: held.url });
    expect(busy.status).toBe(429);
    expect(busy.body).toEqual({ error: 'Too many verifications in progress; retry shortly', code: 'VERIFY_BUSY' });
    expect(busy.headers.get('retry-after')).toBe('1');
    expect((await rig.t.call('GET', verifyQuery({ uri: held.url }))).status).toBe(429);
    held.release();
    expect((await first).body).toMatchObject({ verified: true, credential: enveloped });
    // A refused verification frees its slot too.
    expect((await rig.verify({ uri: `${rig.source.url}/missing` })).status).toBe(502);
    expect((await rig.verify({ uri: held.url })).body.verified).toBe(true);
  });

  it('a decryptionKey never reaches a log line, on success or failure', async () => {
    const stored = await rig.store(await rig.issue(), { encrypt: true });
    const key = stored.decryptionKey!;
    const before = logLines.length;
    const posted = await rig.verify({ uri: stored.uri, decryptionKey: key });
    expect(posted.body.verified).toBe(true);
    const got = await rig.t.call('GET', verifyQuery({ uri: stored.uri, decryptionKey: key }));
    expect(got.body.verified).toBe(true);
    // The decrypted credential is in the answer: no cache may keep it.
    expect([posted.headers.get('cache-control'), got.headers.get('cache-control')]).toEqual(['no-store', 'no-store']);
    expect((await rig.verify({ uri: stored.uri, decryptionKey: 'cd'.repeat(32) })).status).toBe(422);
    await pointVcInstance(rig.t, SYSTEM_SERVICE_IDS.VC, await unreachableVc());
    try {
      expect((await rig.verify({ uri: stored.uri, decryptionKey: key })).status).toBe(502);
    } finally {
      await pointVcInstance(rig.t, SYSTEM_SERVICE_IDS.VC, rig.vc);
    }
    const written = logLines.slice(before);
    expect(written.some((line) => line.includes('the VC service failed'))).toBe(true);
    expect(written.filter((line) => line.toLowerCase().includes(key))).toEqual([]);
  });
});

describe('private addresses (FETCH_ALLOW_PRIVATE_URLS not true) and the per-client rate limit', () => {
  let t: TestApp;
  let source: Source;
  let hits = 0;
  beforeAll(async () => {
    // Names resolve as this table says; only 127.0.0.1 counts as public here, so `public.test` stands for a
    // public host and `internal.test` for a name that resolves to a private address.
    const names: Record<string, string> = { 'public.test': '127.0.0.1', 'internal.test': '127.0.0.2' };
    t = await startTestApp({
      env: { VERIFY_RATE_LIMIT_PER_MINUTE: '6' },
      fetch: {
        resolve: async (host) => (names[host] ? [{ address: names[host]!, family: 4 }] : Promise.reject(new Error(`no such host ${host}`))),
        addressPolicy: (address) => address === '127.0.0.1',
      },
    });
    source = await startSource();
    source.routes.set('/vc.json', (_q, s) => {
      hits++;
      s.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  afterAll(async () => {
    await t.close();
    await source.close();
  });

  it('a private, loopback or local uri is a 400 naming uri, refused before any request', async () => {
    const cases: [string, string][] = [
      [`${source.url}/vc.json`, 'uri: must not point to a private or reserved address'],
      [`http://[::1]:${new URL(source.url).port}/vc.json`, 'uri: must not point to a private or reserved address'],
      ['http://10.1.2.3/vc.json', 'uri: must not point to a private or reserved address'],
      [`http://localhost:${new URL(source.url).port}/vc.json`, 'uri: must not point to a local host name'],
    ];
    for (const [uri, error] of cases) {
      const res = await t.call('POST', VERIFY_PATH, { body: { uri } });
      expect({ status: res.status, body: res.body }, uri).toEqual({ status: 400, body: { error, code: 'VALIDATION_FAILED' } });
    }
    const get = await t.call('GET', verifyQuery({ uri: `${source.url}/vc.json` }));
    expect(get.status).toBe(400);
    expect(hits).toBe(0);
  });

  it('a name resolving to a private address, and a redirect to one, are refused with 400 before any request to it', async () => {
    // From a client address of its own: the previous test spent most of 127.0.0.1's allowance.
    const post = (uri: string) => callFrom('127.0.0.5', 'POST', `${t.url}${VERIFY_PATH}`, { uri });
    const port = new URL(source.url).port;
    const refused = { status: 400, body: { error: 'uri: must not point to a private or reserved address', code: 'VALIDATION_FAILED' } };
    expect(await post(`http://internal.test:${port}/vc.json`)).toMatchObject(refused);
    source.routes.set('/to-internal', (_q, s) => s.writeHead(302, { location: `http://internal.test:${port}/vc.json` }).end());
    expect(await post(`http://public.test:${port}/to-internal`)).toMatchObject(refused);
    expect(hits).toBe(0);
    // The same source reached through the permitted name is fetched (and found not to be a credential).
    expect((await post(`http://public.test:${port}/vc.json`)).body.code).toBe('UNSUPPORTED_CREDENTIAL_TYPE');
    expect(hits).toBe(1);
  });

  it('VERIFY_RATE_LIMIT_PER_MINUTE per client address (every request counts): beyond it 429 RATE_LIMITED with Retry-After; another client is not affected', async () => {
    const client = '127.0.0.3';
    const get = (uri: string) => callFrom(client, 'GET', `${t.url}${verifyQuery({ uri })}`);
    for (let i = 0; i < 6; i++) expect((await get(i % 2 ? 'not a url' : `${source.url}/vc.json`)).status).toBe(400);
    const refused = [await get('https://example.com/vc.json'), await callFrom(client, 'POST', `${t.url}${VERIFY_PATH}`, { uri: 'https://example.com/vc.json' })];
    for (const res of refused) {
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ error: expect.stringMatching(/^Too many verification requests from this client; retry in \d+ s$/), code: 'RATE_LIMITED' });
      // 6 a minute is one every 10 s.
      const wait = Number(res.headers['retry-after']);
      expect(Number.isInteger(wait) && wait >= 1 && wait <= 10, String(wait)).toBe(true);
    }
    const other = await callFrom('127.0.0.4', 'GET', `${t.url}${verifyQuery({ uri: 'not a url' })}`);
    expect(other).toMatchObject({ status: 400, body: { error: 'uri: must be an absolute http or https URL' } });
    // Guarded routes are neither limited by the verify allowance nor counted in it.
    expect((await callFrom(client, 'GET', `${t.url}/api/v1/dids`)).status).toBe(401);
    expect(hits).toBe(1);
  });
});
