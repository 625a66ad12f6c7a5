import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.ts';
import { GuardedFetchError, type Fetcher } from '../net/fetcher.ts';
import { createGuardedFetch } from '../net/guarded-fetch.ts';
import { createBundledArtefacts } from './bundled-artefacts.ts';
import { createDocumentSource, DocumentFetchError, MAX_DOCUMENT_BYTES } from './document-source.ts';
import { documentSettings, offlineFetcher } from './test-support/offline.ts';

const DPP_SCHEMA = 'https://untp.unece.org/artefacts/schema/v0.7.0/dpp/DigitalProductPassport.json';
const UNTP_CONTEXT = 'https://vocabulary.uncefact.org/untp/0.7.0/context/';
const bundled = createBundledArtefacts();

/** A local stand-in for the publishing hosts: each test says what a path answers. */
let server: Server;
let port: number;
const answers = new Map<string, (res: ServerResponse) => void>();
const requested: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requested.push(req.url!);
    const answer = answers.get(req.url!);
    if (answer) return answer(res);
    res.writeHead(404).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/**
 * The real guarded fetch (FETCH_ALLOW_PRIVATE_URLS on for this loopback server), with the published
 * https hosts mapped onto the local server's paths, e.g. https://untp.unece.org/x → http://127.0.0.1:port/untp.unece.org/x.
 */
const hostsOnLoopback = (toPort = () => port): Fetcher => {
  const guarded = createGuardedFetch({ allowPrivate: true, userAgent: 'test', timeoutMs: 5000 });
  return (url, init) => {
    const u = new URL(url);
    return guarded(`http://127.0.0.1:${toPort()}/${u.host}${u.pathname}`, init);
  };
};
const localPath = (url: string) => `/${new URL(url).host}${new URL(url).pathname}`;
const json = (body: unknown, status = 200) => (res: ServerResponse) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

describe('the network is asked first', () => {
  it('uses what the host serves, even for a URL that has a bundled copy', async () => {
    answers.set(localPath(DPP_SCHEMA), json({ title: 'served by the host', type: 'object' }));
    const documents = createDocumentSource(hostsOnLoopback(), documentSettings(), bundled);
    expect(await documents.get(DPP_SCHEMA, 'schema')).toEqual({ title: 'served by the host', type: 'object' });
    expect(requested).toContain(localPath(DPP_SCHEMA));
  });

  it.each([
    ['a 404', (res: ServerResponse) => res.writeHead(404).end('{"error":"gone"}'), /HTTP 404/],
    ['a body that is not JSON', (res: ServerResponse) => res.writeHead(200).end('<html>'), /not a JSON document/],
    ['a JSON array', json([1, 2]), /not a JSON object/],
  ])('a definitive answer (%s) is the answer: no bundled copy stands in', async (_what, answer, message) => {
    answers.set(localPath(UNTP_CONTEXT), answer);
    const documents = createDocumentSource(hostsOnLoopback(), documentSettings(), bundled);
    const failure = documents.get(UNTP_CONTEXT, 'context');
    await expect(failure).rejects.toBeInstanceOf(DocumentFetchError);
    await expect(failure).rejects.toMatchObject({ reason: 'invalid', message });
  });

  it('refuses a document over the size cap', async () => {
    answers.set('/example.org/huge.json', (res) => res.writeHead(200).end(`{"a":"${'x'.repeat(MAX_DOCUMENT_BYTES)}"}`));
    const guarded = createGuardedFetch({ allowPrivate: true, userAgent: 'test', maxBytes: 4 * MAX_DOCUMENT_BYTES });
    const documents = createDocumentSource((url, init) => guarded(url.replace('https://example.org', `http://127.0.0.1:${port}/example.org`), init), documentSettings(), bundled);
    await expect(documents.get('https://example.org/huge.json', 'schema')).rejects.toThrow(/larger than 2097152 bytes/);
  });

  it('a private address is refused by the guard unless FETCH_ALLOW_PRIVATE_URLS, and that is no reason to fall back', async () => {
    const guarded = createGuardedFetch({ allowPrivate: false, userAgent: 'test' });
    const documents = createDocumentSource(guarded, documentSettings(), bundled);
    await expect(documents.get(`http://127.0.0.1:${port}/x.json`, 'schema')).rejects.toMatchObject({ reason: 'invalid', message: expect.stringMatching(/private or reserved/) });
  });
});

describe('the bundled copy stands in for an unreachable host', () => {
  it.each([
    ['the name does not resolve', offlineFetcher()],
    ['the connection is refused', hostsOnLoopback(() => 1)],
    ['the host times out', (async () => { throw new GuardedFetchError('timeout', 'No answer within 10000 ms'); }) as Fetcher],
  ])('when %s', async (_why, fetcher) => {
    const documents = createDocumentSource(fetcher, documentSettings(), bundled);
    expect(await documents.get(UNTP_CONTEXT, 'context')).toEqual(await bundled.lookup(UNTP_CONTEXT));
  });

  it.each([500, 502, 503])('when the host answers %i', async (status) => {
    answers.set(localPath(DPP_SCHEMA), json({ error: 'down' }, status));
    const documents = createDocumentSource(hostsOnLoopback(), documentSettings(), bundled);
    expect(await documents.get(DPP_SCHEMA, 'schema')).toEqual(await bundled.lookup(DPP_SCHEMA));
  });

  it('not when UNTP_BUNDLED_ARTEFACTS=false: the fetch failure is reported', async () => {
    const documents = createDocumentSource(offlineFetcher(), documentSettings({ bundledArtefacts: false }), bundled);
    await expect(documents.get(UNTP_CONTEXT, 'context')).rejects.toMatchObject({
      reason: 'unreachable',
      message: `${UNTP_CONTEXT}: host unreachable (Could not resolve vocabulary.uncefact.org) and bundled artefacts are turned off`,
    });
  });

  it('not for a document that is not bundled', async () => {
    const documents = createDocumentSource(offlineFetcher(), documentSettings(), bundled);
    await expect(documents.get('https://schemas.example.com/extension.json', 'schema')).rejects.toMatchObject({ reason: 'unreachable', message: /no bundled copy/ });
  });
});

describe('caches', () => {
  const counting = () => {
    const calls: string[] = [];
    const fetcher: Fetcher = async (url) => {
      calls.push(url);
      return new Response(JSON.stringify({ url, n: calls.length }), { status: 200 });
    };
    return { calls, fetcher };
  };

  it('keeps a document for its TTL: one fetch for repeated and concurrent requests, per kind', async () => {
    const { calls, fetcher } = counting();
    const documents = createDocumentSource(fetcher, documentSettings(), bundled);
    const [a, b] = await Promise.all([documents.get('https://h.example/s.json', 'schema'), documents.get('https://h.example/s.json', 'schema')]);
    expect(a).toBe(b);
    expect(await documents.get('https://h.example/s.json', 'schema')).toBe(a);
    await documents.get('https://h.example/s.json', 'context');
    expect(calls).toEqual(['https://h.example/s.json', 'https://h.example/s.json']);
  });

  it('a TTL of 0 keeps nothing', async () => {
    const { calls, fetcher } = counting();
    const documents = createDocumentSource(fetcher, documentSettings({ schemaCacheTtlMs: 0 }), bundled);
    await documents.get('https://h.example/s.json', 'schema');
    await documents.get('https://h.example/s.json', 'schema');
    expect(calls).toHaveLength(2);
  });

  it('keeps at most CACHE_MAX_ENTRIES documents, oldest leaving first', async () => {
    const { calls, fetcher } = counting();
    const documents = createDocumentSource(fetcher, documentSettings({ cacheMaxEntries: '2' }), bundled);
    for (const name of ['a', 'b', 'c', 'a']) await documents.get(`https://h.example/${name}.json`, 'schema');
    expect(calls.map((u) => u.slice(-6))).toEqual(['a.json', 'b.json', 'c.json', 'a.json']);
  });

  it('does not keep failures', async () => {
    let up = false;
    const documents = createDocumentSource(async () => {
      if (!up) throw new GuardedFetchError('network', 'down');
      return new Response('{"ok":true}');
    }, documentSettings(), bundled);
    await expect(documents.get('https://h.example/x.json', 'schema')).rejects.toThrow(DocumentFetchError);
    up = true;
    expect(await documents.get('https://h.example/x.json', 'schema')).toEqual({ ok: true });
  });

  it('an invalid CACHE_MAX_ENTRIES throws when the caches are built', () => {
    expect(() => createDocumentSource(offlineFetcher(), documentSettings({ cacheMaxEntries: '0' }), bundled)).toThrow(ConfigError);
  });
});
