import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedFetch } from '../net/guarded-fetch.ts';
import { createIdrAdapter } from './idr/idr-adapter.ts';
import { createStorageAdapter } from './storage/storage-adapter.ts';
import { createVcAdapter } from './vc/vc-adapter.ts';

/** An upstream that answers 2xx with bodies no contract allows: the adapters must refuse them cleanly. */
let server: Server;
let url: string;
let reply: { status: number; body: string; delayMs?: number } = { status: 200, body: '' };
beforeAll(async () => {
  server = createServer((_req, res) => {
    setTimeout(() => {
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(reply.body);
    }, reply.delayMs ?? 0);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => { server.closeAllConnections(); server.close(() => done()); }));

const fetcher = createGuardedFetch({ allowPrivate: true, userAgent: 'css-test', timeoutMs: 300 });
const storage = () => createStorageAdapter({ baseUrl: url, apiKey: 'k', apiVersion: '4.0', publicBucket: 'a', privateBucket: 'b' }, fetcher);
const idr = () => createIdrAdapter({ baseUrl: url, apiKey: 'k', apiVersion: '4.0', defaultLinkType: 'untp:dpp', defaultMimeType: 'text/html', defaultLanguage: 'en', defaultFwqs: false }, fetcher);
const vc = () => createVcAdapter({ baseUrl: url, apiKey: 'k', apiVersion: '1.0.0' }, fetcher);
const failure = (p: Promise<unknown>) => p.then(() => undefined, (e) => e);

describe('adapters facing malformed or slow upstream answers: the upstream failed (unavailable), nothing was refused', () => {
  it('storage: a 201 without uri, without a digest, without the decryptionKey of a private upload, or not JSON at all', async () => {
    for (const body of ['not json', '[]', '{"hash":"abc"}', '{"uri":"https://x/y.json"}', '{"uri":"https://x/y.json","hash":"zz"}', '{"uri":7,"digestMultibase":"zQm1"}']) {
      reply = { status: 201, body };
      expect(await failure(storage().storeJson({ a: 1 }, { encrypt: false })), body).toMatchObject({ kind: 'unavailable', service: 'STORAGE' });
    }
    reply = { status: 201, body: '{"uri":"https://x/y.json","digestMultibase":"zQm1"}' };
    expect(await failure(storage().storeJson({ a: 1 }, { encrypt: true }))).toMatchObject({ kind: 'unavailable', message: expect.stringContaining('decryptionKey') });
    reply = { status: 201, body: '{"uri":"https://x/y.json","digestMultibase":"zQm1"}', delayMs: 1000 };
    expect(await failure(storage().storeJson({ a: 1 }, { encrypt: false }))).toMatchObject({ kind: 'unavailable', message: expect.stringContaining('300 ms') });
  });

  it('VC: answers that are not JSON or not the contract shape, and timeouts', async () => {
    for (const body of ['{}', 'oops', '{"verifiableCredential":{"type":"VerifiableCredential","id":"urn:x"}}', '{"verifiableCredential":{"type":"EnvelopedVerifiableCredential","id":"data:application/vc+jwt,notajws"}}', '{"verifiableCredential":{"type":"EnvelopedVerifiableCredential","id":"data:application/vc+jwt,a.%%%.c"}}']) {
      reply = { status: 201, body };
      expect(await failure(vc().issue({ type: ['VerifiableCredential'] })), body).toMatchObject({ kind: 'unavailable', service: 'VC' });
    }
    for (const body of ['yes', '{"verified":"true"}', '[]']) {
      reply = { status: 200, body };
      expect(await failure(vc().verify({ '@context': [], type: 'EnvelopedVerifiableCredential', id: 'data:application/vc+jwt,a.b.c' })), body).toMatchObject({ kind: 'unavailable' });
    }
    reply = { status: 200, body: '{"revoked":0}' };
    expect(await failure(vc().checkStatus({ id: 'x', type: 'BitstringStatusListEntry', statusPurpose: 'revocation', statusListIndex: 1, statusListCredential: 'https://x' }, 'did:web:x'))).toMatchObject({ kind: 'unavailable' });
    reply = { status: 200, body: '[{"did":"not-a-did","keys":[]}]' };
    expect(await failure(vc().listDids())).toMatchObject({ kind: 'unavailable' });
    reply = { status: 200, body: '[]', delayMs: 1000 };
    expect(await failure(vc().listDids())).toMatchObject({ kind: 'unavailable', message: expect.stringContaining('300 ms') });
  });

  it('IDR: link lists that are not lists of links, link answers that are not links, timeouts and 5xx', async () => {
    const publish = () => idr().listLinks({ namespace: 'gs1', identificationKeyType: '01', identificationKey: '1', qualifierPath: '/' });
    for (const body of ['{}', 'not json', '[{"linkType":"untp:dpp"}]']) {
      reply = { status: 200, body };
      expect(await failure(publish()), body).toMatchObject({ kind: 'unavailable', service: 'IDR' });
    }
    for (const body of ['"link"', '{"linkId":"x"}', '<html/>']) {
      reply = { status: 200, body };
      expect(await failure(idr().getLink('x')), body).toMatchObject({ kind: 'unavailable' });
    }
    reply = { status: 200, body: '{}', delayMs: 1000 };
    expect(await failure(idr().describe())).toMatchObject({ kind: 'unavailable' });
    reply = { status: 200, body: '{"name":"no root"}' };
    expect(await failure(idr().describe())).toMatchObject({ kind: 'unavailable' });
    reply = { status: 502, body: '<html>bad gateway</html>' };
    expect(await failure(storage().delete('x', { encrypted: false }))).toMatchObject({ kind: 'unavailable', status: 502 });
  });
});
