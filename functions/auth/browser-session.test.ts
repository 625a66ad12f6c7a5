import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSessions } from '../../db/schema/index.ts';
import { signInThroughBrowser } from '../../test/rig/browser.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

const LIST = '/api/v1/registrars';

describe('browser sign-in (open mode)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('code flow with PKCE ends in a session cookie that authenticates API calls', async () => {
    const { browser, callback, landedAt } = await signInThroughBrowser(t.url, 'alice');
    expect(callback.status).toBe(302);
    expect(landedAt).toBe(LIST);
    const cookie = callback.headers.getSetCookie().find((c) => c.startsWith('css_session='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const list = await browser.fetch(`${t.url}${LIST}`);
    expect(list.status).toBe(200);
    const created = await browser.fetch(`${t.url}${LIST}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'From the browser', namespace: 'web', url: 'https://web.example.com' }),
    });
    expect(created.status).toBe(201);
  });

  it('stores only a hash of the session token', async () => {
    const { browser } = await signInThroughBrowser(t.url, 'bob');
    const token = browser.cookie(new URL(t.url).origin, 'css_session')!;
    const rows = await t.db.select().from(browserSessions);
    expect(rows.some((r) => r.tokenHash === token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.tokenHash))).toBe(true);
  });

  it('the same person signing in twice keeps one tenant', async () => {
    const first = await signInThroughBrowser(t.url, 'carol');
    const made = await first.browser.fetch(`${t.url}${LIST}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Carol', namespace: 'carol', url: 'https://carol.example.com' }),
    });
    const { id } = (await made.json()) as { id: string };
    const second = await signInThroughBrowser(t.url, 'carol');
    expect((await second.browser.fetch(`${t.url}${LIST}/${id}`)).status).toBe(200);
    const other = await signInThroughBrowser(t.url, 'dave');
    expect((await other.browser.fetch(`${t.url}${LIST}/${id}`)).status).toBe(404);
  });

  it('logout ends the session', async () => {
    const { browser } = await signInThroughBrowser(t.url, 'erin');
    const token = browser.cookie(new URL(t.url).origin, 'css_session')!;
    const out = await browser.fetch(`${t.url}/auth/logout`, { method: 'POST' });
    expect(out.status).toBe(302);
    expect(browser.cookie(new URL(t.url).origin, 'css_session')).toBeUndefined();
    const replay = await t.call('GET', LIST, { headers: { cookie: `css_session=${token}` } });
    expect(replay.status).toBe(401);
  });

  it('refuses a callback whose state does not match, and never redirects off-site', async () => {
    const bad = await t.call('GET', '/auth/callback?code=x&state=y', { headers: { cookie: `css_oauth=${btoa(JSON.stringify({ state: 'z', verifier: 'v', returnTo: '/' }))}` } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('state');
    const missing = await t.call('GET', '/auth/callback?code=x&state=y');
    expect(missing.status).toBe(400);
    const { landedAt } = await signInThroughBrowser(t.url, 'frank', '//evil.example.com/');
    expect(landedAt).toBe('/');
  });

  it('an expired session is refused and removed', async () => {
    const { browser } = await signInThroughBrowser(t.url, 'grace');
    await t.db.update(browserSessions).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await browser.fetch(`${t.url}${LIST}`)).status).toBe(401);
  });
});

describe('browser sessions in closed mode', () => {
  const groups: Record<string, string[]> = { alice: ['acme'], bob: [] };
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { TENANT_MODE: 'closed' }, userGroups: groups });
  });
  afterAll(() => t.close());

  const ageSessions = () => t.db.update(browserSessions).set({ refreshedAt: new Date(Date.now() - 10 * 60_000) });

  it('maps the group claim to the tenant and follows a group change at the next refresh', async () => {
    const { browser } = await signInThroughBrowser(t.url, 'alice');
    const made = await browser.fetch(`${t.url}${LIST}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Acme', namespace: 'acme', url: 'https://acme.example.com' }),
    });
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: string };
    // A service account of the same group sees it: one tenant per group.
    expect((await t.call('GET', `${LIST}/${id}`, { token: await t.token('acme') })).status).toBe(200);

    groups.alice = ['globex'];
    expect((await browser.fetch(`${t.url}${LIST}/${id}`)).status).toBe(200); // not yet refreshed
    await ageSessions();
    expect((await browser.fetch(`${t.url}${LIST}/${id}`)).status).toBe(404); // now in globex
    const [session] = await t.db.select().from(browserSessions);
    expect(Date.now() - session!.refreshedAt.getTime()).toBeLessThan(60_000);
  });

  it('403 and the session ends when the group claim disappears', async () => {
    groups.carol = ['acme'];
    const { browser } = await signInThroughBrowser(t.url, 'carol');
    expect((await browser.fetch(`${t.url}${LIST}`)).status).toBe(200);
    groups.carol = [];
    await ageSessions();
    const res = await browser.fetch(`${t.url}${LIST}`);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('TENANT_CLAIM_MISSING');
    expect((await browser.fetch(`${t.url}${LIST}`)).status).toBe(401);
  });

  it('403 at sign-in for a person without the group claim', async () => {
    const { callback } = await signInThroughBrowser(t.url, 'bob');
    expect(callback.status).toBe(403);
  });
});
