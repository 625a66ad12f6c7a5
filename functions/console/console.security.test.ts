import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSessions } from '../../db/schema/index.ts';
import { signInToConsole, type ConsoleUser } from '../../test/rig/console-user.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

describe('console: sign-in, headers and CSRF', () => {
  let t: TestApp;
  let alice: ConsoleUser;
  beforeAll(async () => {
    t = await startTestApp();
    alice = await signInToConsole(t.url, 'alice');
  });
  afterAll(() => t.close());

  it('sends an unauthenticated visit through /auth/login and back to the page', async () => {
    const res = await fetch(`${t.url}/console/organisations?q=x`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/auth/login?returnTo=${encodeURIComponent('/console/organisations?q=x')}`);
  });

  it('refuses a bearer token (the console is for signed-in people) by sending it to sign in', async () => {
    const res = await t.call('GET', '/console', { token: await t.token('tenantA') });
    expect(res.status).toBe(303);
  });

  it('an htmx request without a session gets HX-Redirect to sign-in, back to the page it came from', async () => {
    const res = await fetch(`${t.url}/console/credentials`, {
      headers: { 'hx-request': 'true', 'hx-current-url': `${t.url}/console/credentials?status=revoked` },
      redirect: 'manual',
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('hx-redirect')).toBe(`/auth/login?returnTo=${encodeURIComponent('/console/credentials?status=revoked')}`);
  });

  it('an expired session returns to sign-in and then to the page', async () => {
    const bob = await signInToConsole(t.url, 'bob');
    expect((await bob.get('/console')).status).toBe(200);
    await t.db.update(browserSessions).set({ expiresAt: new Date(Date.now() - 1000) });
    const res = await bob.get('/console/products');
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/auth/login?returnTo=${encodeURIComponent('/console/products')}`);
    // Signing in again lands on the page.
    alice = await signInToConsole(t.url, 'alice');
  });

  it('serves pages with a nonce-only script policy, the nonce on the htmx script and no caching', async () => {
    const res = await alice.get('/console');
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    const nonce = csp.match(/script-src 'nonce-([A-Za-z0-9_-]+)'/)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.html).toMatch(new RegExp(`<script src="/console/assets/htmx-[a-z0-9]+\\.js" nonce="${nonce}"`));
    expect(res.headers.get('cache-control')).toBe('no-store');
    const again = await alice.get('/console');
    expect(again.headers.get('content-security-policy')).not.toBe(csp);
  });

  it('serves htmx and the stylesheet from this origin, and nothing else under /assets', async () => {
    const page = (await alice.get('/console')).html;
    const htmx = page.match(/src="(\/console\/assets\/htmx-[a-z0-9]+\.js)"/)![1]!;
    const css = page.match(/href="(\/console\/assets\/console-[a-z0-9]+\.css)"/)![1]!;
    const script = await fetch(`${t.url}${htmx}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(await script.text()).toContain('htmx');
    expect((await fetch(`${t.url}${css}`)).status).toBe(200);
    expect((await fetch(`${t.url}/console/assets/other.js`)).status).toBe(404);
    expect(page).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
  });

  it('puts the session CSRF token in forms and refuses a post without it or with another', async () => {
    const token = await alice.csrfToken();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const without = await alice.post('/console/organisations/new', { name: 'No token' }, { csrf: false });
    expect(without.status).toBe(403);
    expect(without.html).toContain('did not come from this console');
    const other = await alice.post('/console/organisations/new', { name: 'Wrong token' }, { csrf: '0'.repeat(64) });
    expect(other.status).toBe(403);
    const carol = await signInToConsole(t.url, 'carol');
    const carols = await carol.post('/console/organisations/new', { name: 'Alice token' }, { csrf: token });
    expect(carols.status).toBe(403);
  });
});
