import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRAIN_MAX_BYTES } from '../../functions/platform/unread-body.ts';
import { startTestApp, type TestApp } from '../rig/test-app.ts';

/** An early 413/415 drains a small body (the connection stays usable) and closes on a large one. */
let t: TestApp;
let token: string;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

beforeAll(async () => {
  t = await startTestApp({ env: { MAX_REQUEST_BODY_BYTES: '1024' } });
  token = await t.token('tenantA');
});
afterAll(async () => {
  agent.destroy();
  await t.close();
});

interface Answer {
  status: number;
  connection?: string;
  reusedSocket: boolean;
}

const post = (body: Buffer, contentType: string) =>
  new Promise<Answer>((resolve, reject) => {
    const url = new URL('/api/v1/registrars', t.url);
    const req = request(url, { method: 'POST', agent, headers: { authorization: `Bearer ${token}`, 'content-type': contentType, 'content-length': body.length } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, reusedSocket: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end(body);
  });

const json = (bytes: number) => Buffer.from(JSON.stringify({ name: 'r', namespace: 'n', url: 'https://example.com', pad: 'x'.repeat(bytes) }));
const small = () => Buffer.from(JSON.stringify({ name: 'r', namespace: 'n', url: 'https://example.com' }));

describe('early 413 and 415', () => {
  it.each([
    ['413', () => json(4_000), 'application/json', 413],
    ['415', () => json(100), 'text/plain', 415],
  ])('%s with a small body: the same connection serves the next request', async (_, body, type, status) => {
    const first = await post(small(), 'application/json');
    const refused = await post(body(), type);
    const next = await post(small(), 'application/json');
    expect(refused.status).toBe(status);
    expect(refused.connection).not.toBe('close');
    expect(first.status).toBe(201);
    expect(next).toMatchObject({ status: 201, reusedSocket: true });
  });

  it('413 with a body too large to drain says Connection: close', async () => {
    const refused = await post(json(DRAIN_MAX_BYTES + 10), 'application/json');
    expect(refused).toMatchObject({ status: 413, connection: 'close' });
    const next = await post(small(), 'application/json');
    expect(next).toMatchObject({ status: 201, reusedSocket: false });
  });
});
