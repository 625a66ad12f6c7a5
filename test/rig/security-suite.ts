import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/** One request: method, path and an optional JSON body. */
export type Call = readonly [method: string, path: string, body?: unknown];

/**
 * A request naming a record by id (in the path or the body). Sent by tenant B with tenant A's id and
 * with a missing id, both answers must be identical (404 unless `status` says otherwise).
 */
export interface ForeignCall {
  method: string;
  path: (id: string) => string;
  body?: (id: string) => unknown;
  /** Request headers (e.g. If-Version), the same for both requests. */
  headers?: Record<string, string>;
  /** Tenant A's id. */
  id: string;
  status?: number;
}

export interface SecurityCase<F> {
  /** Names the describe blocks, e.g. `/registrars`. */
  name: string;
  /** Options of the test app (e.g. settings). */
  app?: Parameters<typeof startTestApp>[0];
  /** Tenant A's records (and anything else the routes need). */
  setup: (t: TestApp, tokenA: string, tokenB: string) => Promise<F>;
  /** Every route of the group: each one needs a valid token. */
  routes: (f: F) => Call[];
  /** Tenant B naming tenant A's records: each answer is identical to the one for a missing id. */
  foreign: (f: F) => ForeignCall[];
  /** Lists read by tenant B that must not contain tenant A's ids. */
  lists?: (f: F) => { path: string; hidden: string[] }[];
  /** Tenant A's view of its records: unchanged by every rejected request. */
  snapshot: (t: TestApp, f: F, tokenA: string) => Promise<unknown>;
  /** Row counts that rejected requests must leave as they were. */
  count?: (db: Database) => Promise<unknown>;
}

export interface SecurityContext<F> {
  t: TestApp;
  tokenA: string;
  tokenB: string;
  fixture: F;
}

const MISSING_ID = 'no-such-record';

/**
 * The security paths every resource group shares: no token and a token that does not verify on every
 * route (401, nothing changes), and another tenant's ids, in paths and bodies (a 404 identical to a
 * missing id; nothing changes; lists never show them). Returns the running context so a group can add
 * its own cases (system defaults, secrets) against the same app.
 */
export const securitySuite = <F>(c: SecurityCase<F>): (() => SecurityContext<F>) => {
  let ctx: SecurityContext<F>;
  let original: unknown;
  const unchanged = async () => expect(await c.snapshot(ctx.t, ctx.fixture, ctx.tokenA)).toEqual(original);
  const counted = async () => (c.count ? c.count(ctx.t.db) : undefined);

  beforeAll(async () => {
    const t = await startTestApp(c.app);
    const [tokenA, tokenB] = await Promise.all([t.token('tenantA'), t.token('tenantB')]);
    ctx = { t, tokenA, tokenB, fixture: await c.setup(t, tokenA, tokenB) };
    original = await c.snapshot(t, ctx.fixture, tokenA);
  });
  afterAll(() => ctx.t.close());

  describe(`authentication on every ${c.name} route`, () => {
    it('401 { error, message } without a token or cookie; nothing changes', async () => {
      const before = await counted();
      for (const [method, path, body] of c.routes(ctx.fixture)) {
        const res = await ctx.t.call(method, path, { body });
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(res.body).toEqual({ error: 'Unauthorised', message: expect.stringContaining('Authentication required') });
      }
      expect(await counted()).toEqual(before);
      await unchanged();
    });

    it('401 { error, code } for a malformed or forged token; nothing changes', async () => {
      const before = await counted();
      const forged = `${ctx.tokenA.slice(0, -4)}AAAA`;
      for (const [method, path, body] of c.routes(ctx.fixture)) {
        for (const token of ['not-a-jwt', forged]) {
          const res = await ctx.t.call(method, path, { body, token });
          expect(res.status, `${method} ${path}`).toBe(401);
          expect(res.body).toEqual({ error: 'Invalid or expired access token', code: 'UNAUTHENTICATED' });
        }
      }
      expect(await counted()).toEqual(before);
      await unchanged();
    });
  });

  describe(`tenancy on ${c.name}`, () => {
    it("another tenant's ids, in paths and bodies, answer exactly like missing ones; nothing changes", async () => {
      const before = await counted();
      for (const call of c.foreign(ctx.fixture)) {
        const send = (id: string) => ctx.t.call(call.method, call.path(id), { token: ctx.tokenB, body: call.body?.(id), headers: call.headers });
        const foreign = await send(call.id);
        const missing = await send(MISSING_ID);
        const label = `${call.method} ${call.path(call.id)}`;
        expect(foreign.status, label).toBe(call.status ?? 404);
        expect(foreign.status, label).toBe(missing.status);
        expect(foreign.body, label).toEqual(missing.body);
      }
      expect(await counted()).toEqual(before);
      await unchanged();
    });

    it("lists never show another tenant's records", async () => {
      for (const { path, hidden } of c.lists?.(ctx.fixture) ?? []) {
        const res = await ctx.t.call('GET', path, { token: ctx.tokenB });
        expect(res.status, path).toBe(200);
        const ids = (res.body.data as { id: string }[]).map((r) => r.id);
        for (const id of hidden) expect(ids, path).not.toContain(id);
      }
    });
  });

  return () => ctx;
};
