import { createAdaptorServer } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeFetch } from './node-fetch.ts';

/**
 * The Node server's side of correlation ids (the platform's side, through the whole app, is in
 * conventions.test.ts): the id is chosen by the platform's rule, written on the Node response and handed
 * to the app, on every response the process makes, the adapter's own 500 included.
 */
describe('nodeFetch: the correlation id written by the Node server', () => {
  let url = '';
  const server = createAdaptorServer({
    fetch: nodeFetch((request, env) => {
      if (new URL(request.url).pathname === '/boom') throw new Error('handler failed');
      return Response.json({ given: env.correlationId });
    }),
    hostname: '127.0.0.1',
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${url}${path}`, { headers });
    const text = await response.text();
    return { status: response.status, id: response.headers.get('x-correlation-id'), text };
  };

  it('echoes a well-formed inbound id, hands the app the same, and writes the header once', async () => {
    const { status, id, text } = await get('/', { 'x-correlation-id': 'abc_DEF-123' });
    expect([status, id, JSON.parse(text)]).toEqual([200, 'abc_DEF-123', { given: 'abc_DEF-123' }]);
  });

  it('makes a new id for a missing, malformed or over-long inbound one', async () => {
    const inbound: Record<string, string>[] = [{}, { 'x-correlation-id': 'bad id; drop table' }, { 'x-correlation-id': 'a'.repeat(129) }];
    for (const headers of inbound) {
      const { id, text } = await get('/', headers);
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(JSON.parse(text)).toEqual({ given: id });
    }
  });

  it('carries the id on the response the adapter makes when the app throws', async () => {
    const { status, id } = await get('/boom', { 'x-correlation-id': 'trace-adapter' });
    expect([status, id]).toEqual([500, 'trace-adapter']);
  });
});
