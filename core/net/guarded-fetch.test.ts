import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GuardedFetchError, readUserAgent } from './fetcher.ts';
import { createEdgeGuardedFetch } from './edge-guarded-fetch.ts';
import { createGuardedFetch } from './guarded-fetch.ts';
import { freePort } from '../../test/rig/postgres-server.ts';

let server: Server;
let other: Server;
let base: string;
let otherBase: string;
const seen: { path: string; ua?: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ path: req.url!, ua: req.headers['user-agent'] });
    const hops = /^\/hops\/(\d+)$/.exec(req.url!);
    if (hops) {
      const n = Number(hops[1]);
      if (n === 0) return res.end('arrived');
      res.writeHead(302, { location: `/hops/${n - 1}` });
      return res.end();
    }
    if (req.url === '/to-private') {
      res.writeHead(301, { location: 'http://10.1.2.3/secret' });
      return res.end();
    }
    if (req.url === '/big') return res.end('x'.repeat(5000));
    if (req.url === '/big-undeclared') {
      res.write('x'.repeat(800));
      return res.end('x'.repeat(800));
    }
    if (req.url === '/headers') return res.end(JSON.stringify({ method: req.method, auth: req.headers.authorization ?? null, key: req.headers['x-api-key'] ?? null, ua: req.headers['user-agent'] }));
    if (req.url === '/same-origin') {
      res.writeHead(307, { location: '/headers' });
      return res.end();
    }
    if (req.url === '/cross-origin') {
      res.writeHead(307, { location: `${otherBase}/headers` });
      return res.end();
    }
    if (req.url === '/see-other') {
      res.writeHead(303, { location: '/headers' });
      return res.end();
    }
    if (req.url === '/slow') return setTimeout(() => res.end('late'), 2000);
    if (req.url === '/reset') return req.socket.destroy();
    if (req.url === '/echo' && req.method === 'POST') {
      let body = '';
      req.on('data', (c) => (body += c));
      return req.on('end', () => res.end(`${req.headers['content-type']}|${body}`));
    }
    res.end('ok');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A second origin (another port) that echoes what reached it.
  other = createServer((req, res) => res.end(JSON.stringify({ method: req.method, auth: req.headers.authorization ?? null, key: req.headers['x-api-key'] ?? null, ua: req.headers['user-agent'] })));
  await new Promise<void>((done) => other.listen(0, '127.0.0.1', () => done()));
  otherBase = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((done) => other.close(() => done()));
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
});

const allowed = createGuardedFetch({ allowPrivate: true, userAgent: 'css-test/1', maxBytes: 1000, timeoutMs: 500 });
const guarded = createGuardedFetch({ allowPrivate: false, userAgent: 'css-test/1' });
const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(() => undefined, (e) => e);
  expect(error).toBeInstanceOf(GuardedFetchError);
  return (error as GuardedFetchError).reason;
};

describe('guarded fetch', () => {
  it('fetches when private addresses are allowed, sending our user agent and bodies', async () => {
    const res = await allowed(`${base}/plain`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ok');
    expect(seen.at(-1)).toEqual({ path: '/plain', ua: 'css-test/1' });
    const echo = await allowed(`${base}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(await echo.text()).toBe('application/json|{"a":1}');
  });

  it('an answer reads as text, JSON or bytes exactly as sent, and only once, as fetch answers do', async () => {
    const sent = JSON.stringify({ method: 'GET', auth: null, key: null, ua: 'css-test/1' });
    expect(await (await allowed(`${base}/headers`)).text()).toBe(sent);
    expect(await (await allowed(`${base}/headers`)).json()).toEqual(JSON.parse(sent));
    expect(new TextDecoder().decode(await (await allowed(`${base}/headers`)).arrayBuffer())).toBe(sent);
    const once = await allowed(`${base}/headers`);
    await once.text();
    await expect(once.json()).rejects.toThrow(TypeError);
    await expect(once.arrayBuffer()).rejects.toThrow(TypeError);
    expect(once.bodyUsed).toBe(true);
    // The body stream may be taken instead; once it is read, the body is used as with fetch.
    const streamed = await allowed(`${base}/headers`);
    expect(streamed.bodyUsed).toBe(false);
    expect(await new Response(streamed.body).text()).toBe(sent);
    expect(streamed.bodyUsed).toBe(true);
    await expect(streamed.text()).rejects.toThrow(TypeError);
  });

  it('refuses loopback, private and local names unless allowed, before connecting', async () => {
    const before = seen.length;
    expect(await refusal(guarded(`${base}/plain`))).toBe('blocked-address');
    expect(await refusal(guarded('http://localhost:1/x'))).toBe('blocked-address');
    expect(await refusal(guarded('http://[::1]:1/x'))).toBe('blocked-address');
    expect(await refusal(guarded('http://169.254.169.254/latest/meta-data'))).toBe('blocked-address');
    expect(seen.length).toBe(before);
  });

  it('follows at most three redirects and re-checks every hop', async () => {
    expect(await (await allowed(`${base}/hops/3`)).text()).toBe('arrived');
    expect(await refusal(allowed(`${base}/hops/4`))).toBe('too-many-redirects');
    // A policy that admits only the test server's loopback address stands in for "public" here, so the
    // first hop passes and the redirect to 10.1.2.3 is judged on its own.
    const strict = createGuardedFetch({ allowPrivate: false, userAgent: 'x', addressPolicy: (a) => a === '127.0.0.1' });
    expect(await (await strict(`${base}/hops/1`)).text()).toBe('arrived');
    expect(await refusal(strict(`${base}/to-private`))).toBe('blocked-address');
  });

  it('judges a name by every address it resolves to, and connects to the address it checked', async () => {
    const port = new URL(base).port;
    const answers: Record<string, { address: string; family: number }[]> = {
      'rebind.example': [{ address: '10.0.0.7', family: 4 }],
      'mixed.example': [{ address: '93.184.216.34', family: 4 }, { address: '127.0.0.1', family: 4 }],
      'v6private.example': [{ address: 'fd00::5', family: 6 }],
      'pinned.example': [{ address: '127.0.0.1', family: 4 }],
    };
    const resolve = async (host: string) => answers[host] ?? [];
    const strict = createGuardedFetch({ allowPrivate: false, userAgent: 'x', resolve });
    for (const host of ['rebind.example', 'mixed.example', 'v6private.example']) {
      expect(await refusal(strict(`http://${host}:${port}/plain`)), host).toBe('blocked-address');
    }
    // With the loopback test server standing in for a public host, the request for the name goes to
    // exactly the address that was checked (no second, unchecked lookup).
    const pinned = createGuardedFetch({ allowPrivate: false, userAgent: 'x', resolve, addressPolicy: (a) => a === '127.0.0.1' });
    expect(await (await pinned(`http://pinned.example:${port}/plain`)).text()).toBe('ok');
  });

  it('refuses private addresses in every spelling: decimal, hex, IPv4-mapped IPv6, CGNAT, multicast, documentation', async () => {
    for (const url of ['http://2130706433/', 'http://0x7f000001/', 'http://017700000001/', 'http://[::ffff:127.0.0.1]/', 'http://[::ffff:7f00:1]/', 'http://100.64.1.1/', 'http://224.0.0.251/', 'http://192.0.2.10/', 'http://[2001:db8::1]/', 'http://[fe80::1]/', 'http://0.0.0.0/']) {
      expect(await refusal(guarded(url)), url).toBe('blocked-address');
    }
  });

  it('caps the response size and the time', async () => {
    expect(await refusal(allowed(`${base}/big`))).toBe('too-large');
    expect(await refusal(allowed(`${base}/slow`))).toBe('timeout');
  });

  it('refuses non-http(s) and credential-bearing URLs', async () => {
    expect(await refusal(allowed('ftp://example.com/x'))).toBe('bad-url');
    expect(await refusal(allowed('http://user:pw@example.com/x'))).toBe('bad-url');
    expect(await refusal(allowed('not a url'))).toBe('bad-url');
  });

  it('RI_HTTP_USER_AGENT must be Latin-1 without control characters; unset or blank uses the built-in value', () => {
    expect(readUserAgent(undefined)).toMatch(/CredentialSupportService/);
    expect(readUserAgent('  ')).toBe(readUserAgent(undefined));
    expect(readUserAgent('Acme/2.0 (café)')).toBe('Acme/2.0 (café)');
    expect(() => readUserAgent('bad\nagent')).toThrow();
    expect(() => readUserAgent('emoji 🚀')).toThrow();
  });
});

describe.each([
  ['Node (DNS-pinned)', createGuardedFetch],
  ['edge (URL-checked)', createEdgeGuardedFetch],
])('%s guarded fetch: shared rules', (_name, make) => {
  const open = make({ allowPrivate: true, userAgent: 'css-test/2', maxBytes: 1000, timeoutMs: 500 });
  const closed = make({ allowPrivate: false, userAgent: 'css-test/2' });
  const credentials = { authorization: 'Bearer secret-token', 'x-api-key': 'secret-key' };

  it('keeps credentials on a same-origin redirect and drops them when a redirect leaves the origin', async () => {
    expect(await (await open(`${base}/same-origin`, { headers: credentials })).json()).toEqual({ method: 'GET', auth: 'Bearer secret-token', key: 'secret-key', ua: 'css-test/2' });
    expect(await (await open(`${base}/cross-origin`, { headers: credentials })).json()).toEqual({ method: 'GET', auth: null, key: null, ua: 'css-test/2' });
  });

  it('a 303 after a POST continues as a GET without the body', async () => {
    const res = await open(`${base}/see-other`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(await res.json()).toMatchObject({ method: 'GET' });
  });

  it('at most three redirects; size cap with and without a declared length; timeout', async () => {
    expect(await (await open(`${base}/hops/3`)).text()).toBe('arrived');
    expect(await refusal(open(`${base}/hops/4`))).toBe('too-many-redirects');
    expect(await refusal(open(`${base}/big`))).toBe('too-large');
    expect(await refusal(open(`${base}/big-undeclared`))).toBe('too-large');
    expect(await refusal(open(`${base}/slow`))).toBe('timeout');
  });

  it('says a request was not sent only when it certainly was not: refused connection yes; timeout, reset, too large no', async () => {
    const notSent = async (promise: Promise<unknown>) => {
      const error = await promise.then(() => undefined, (e) => e);
      expect(error).toBeInstanceOf(GuardedFetchError);
      return (error as GuardedFetchError).notSent;
    };
    const nobody = `http://127.0.0.1:${await freePort()}/x`;
    expect(await notSent(open(nobody, { method: 'POST', body: '{}' }))).toBe(true);
    expect(await notSent(closed(`${base}/plain`))).toBe(true);
    expect(await notSent(open(`${base}/slow`, { method: 'POST', body: '{}' }))).toBe(false);
    expect(await notSent(open(`${base}/reset`, { method: 'POST', body: '{}' }))).toBe(false);
    expect(await notSent(open(`${base}/big`))).toBe(false);
  });

  it('refuses loopback, private literals and local names when private URLs are not allowed', async () => {
    for (const url of [`${base}/plain`, 'http://localhost:1/', 'http://[::1]/', 'http://10.0.0.1/', 'http://[::ffff:10.0.0.1]/', 'http://2130706433/']) {
      expect(await refusal(closed(url)), url).toBe('blocked-address');
    }
    expect(await refusal(closed('file:///etc/passwd'))).toBe('bad-url');
  });
});
