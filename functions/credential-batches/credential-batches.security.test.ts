import { beforeAll, describe, expect, it } from 'vitest';
import { securitySuite } from '../../test/rig/security-suite.ts';
import type { TestApp } from '../../test/rig/test-app.ts';
import { BATCHES, batchCount, item, submit } from '../../test/rig/batch-submission.ts';

let t: TestApp;
let tokenA: string;
let tokenB: string;

const context = securitySuite({
  name: '/credentials/batches',
  setup: async (app, a) => ({ batchOfA: (await submit(app, a, { items: [item({ reference: 'secret-order' })] }, 'a-key')).body as { batchId: string } }),
  routes: (f) => [
    ['POST', BATCHES, { items: [item()] }],
    ['GET', `${BATCHES}/${f.batchOfA.batchId}`],
    ['POST', `${BATCHES}/${f.batchOfA.batchId}/cancel`],
  ],
  foreign: (f) => [
    { method: 'GET', path: (id) => `${BATCHES}/${id}`, id: f.batchOfA.batchId },
    { method: 'POST', path: (id) => `${BATCHES}/${id}/cancel`, id: f.batchOfA.batchId },
  ],
  snapshot: async (app, f, a) => (await app.call('GET', `${BATCHES}/${f.batchOfA.batchId}`, { token: a })).body,
  count: batchCount,
});
beforeAll(() => ({ t, tokenA, tokenB } = context()));

describe('another tenant', () => {
  it('gets the 404 body of a missing batch, naming no code beyond NOT_FOUND', async () => {
    const { batchOfA } = context().fixture;
    const res = await t.call('GET', `${BATCHES}/${batchOfA.batchId}`, { token: tokenB });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Credential batch not found', code: 'NOT_FOUND' });
  });

  it('reusing tenant A’s submission key neither replays nor reveals tenant A’s batch', async () => {
    const { batchOfA } = context().fixture;
    const res = await submit(t, tokenB, { items: [item({ reference: 'secret-order' })] }, 'a-key');
    expect(res.status).toBe(202);
    expect(res.body.batchId).not.toBe(batchOfA.batchId);
    const mine = await t.call('GET', `${BATCHES}/${batchOfA.batchId}`, { token: tokenA });
    expect(mine.body.state).toBe('QUEUED');
    expect(mine.body.cancelRequestedAt).toBeNull();
  });
});
