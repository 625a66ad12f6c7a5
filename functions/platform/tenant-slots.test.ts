import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';
import { createTenantSlots, HEAVY_REQUEST_LIMITS, heavyRequest, heavyRequestLoad } from './tenant-slots.ts';

/** A piece of work the test finishes when it wants: a heavy request held open. */
const held = () => {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { done, finish };
};
const settled = (promise: Promise<unknown>) => {
  const state = { settled: false };
  void promise.then(() => (state.settled = true), () => (state.settled = true));
  return state;
};

describe('tenant slots', () => {
  it('one running per tenant, the next in arrival order, another tenant never waits, 429 TENANT_BUSY past the queue', async () => {
    const slots = createTenantSlots({ concurrent: 1, waiting: 2 });
    const order: string[] = [];
    const first = held();
    const a1 = slots.run('A', async () => {
      order.push('a1');
      await first.done;
    });
    const a2 = slots.run('A', async () => void order.push('a2'));
    const a3 = slots.run('A', async () => void order.push('a3'));
    await expect(slots.run('A', async () => order.push('a4'))).rejects.toMatchObject({ status: 429, code: 'TENANT_BUSY' });
    expect(slots.load('A')).toEqual({ running: 1, waiting: 2 });
    await slots.run('B', async () => void order.push('b1'));
    expect(order).toEqual(['a1', 'b1']);
    first.finish();
    await Promise.all([a1, a2, a3]);
    expect(order).toEqual(['a1', 'b1', 'a2', 'a3']);
    expect(slots.load('A')).toEqual({ running: 0, waiting: 0 });
  });

  it('a failing request frees its slot', async () => {
    const slots = createTenantSlots({ concurrent: 1, waiting: 1 });
    await expect(slots.run('A', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await slots.run('A', async () => 'next')).toBe('next');
  });
});

describe('heavy requests through HTTP (bulk creates)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  const create = async (account: 'tenantA' | 'tenantB', name: string) =>
    t.call('POST', '/api/v1/products', { token: await t.token(account), body: [{ name, level: 'MODEL' }] });

  it("a tenant's heavy request waits while its own is running; another tenant's does not; past the queue it is 429", async () => {
    expect((await create('tenantA', 'first call makes the tenant')).status).toBe(201);
    const tenantA = await t.tenantOf('tenantA');
    const settings = t.services.settings;
    const running = held();
    const holder = heavyRequest(settings, tenantA, () => running.done);

    const mine = create('tenantA', 'waits its turn');
    const mineState = settled(mine);
    const theirs = await create('tenantB', 'never waits');
    expect(theirs.status, theirs.text).toBe(201);
    // Bounded by readiness: tenant A's request is queued behind the held one.
    for (let i = 0; heavyRequestLoad(settings, tenantA).waiting < 1; i++) {
      if (i > 400) throw new Error('tenant A’s request never queued');
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(mineState.settled).toBe(false);

    const more = Array.from({ length: HEAVY_REQUEST_LIMITS.waiting - 1 }, (_, i) => create('tenantA', `queued ${i}`));
    for (let i = 0; heavyRequestLoad(settings, tenantA).waiting < HEAVY_REQUEST_LIMITS.waiting; i++) {
      if (i > 400) throw new Error('the queue never filled');
      await new Promise((r) => setTimeout(r, 25));
    }
    const busy = await create('tenantA', 'one too many');
    expect(busy.status).toBe(429);
    expect(busy.body).toMatchObject({ code: 'TENANT_BUSY', error: expect.stringContaining('heavy requests') });

    running.finish();
    await holder;
    expect((await mine).status).toBe(201);
    for (const res of await Promise.all(more)) expect(res.status).toBe(201);
    expect(heavyRequestLoad(settings, tenantA)).toEqual({ running: 0, waiting: 0 });
  });
});
