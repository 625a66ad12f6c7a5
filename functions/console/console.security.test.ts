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

  it('refuses every state-changing console route without the token, before looking at the record', async () => {
    const posts = [
      '/console/issue/preview',
      '/console/issue',
      '/console/batches',
      '/console/batches/anyid/cancel',
      '/console/credentials/anyid/status',
      '/console/credentials/anyid/delete',
      '/console/dids/new',
      '/console/dids/anyid/verify',
      '/console/dids/anyid/default',
      '/console/dids/import',
      '/console/library/new',
      '/console/library/anyid/verify',
      '/console/library/anyid/tags',
      '/console/library/anyid/annotations',
      '/console/templates/new',
      '/console/templates/preview',
      '/console/templates/anyid',
      '/console/templates/anyid/default',
      ...['organisations', 'facilities', 'products', 'identifiers', 'schemes', 'registrars'].flatMap((kind) => [`/console/${kind}/new`, `/console/${kind}/anyid`, `/console/${kind}/anyid/delete`]),
    ];
    for (const path of posts) {
      const res = await alice.post(path, { name: 'x' }, { csrf: false });
      expect(res.status, path).toBe(403);
    }
    // htmx requests carry it as a header instead.
    const viaHeader = await alice.browser.fetch(`${t.url}/console/organisations/new`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-csrf-token': await alice.csrfToken() },
      body: new URLSearchParams({ name: 'By header' }),
    });
    expect(viaHeader.status).toBe(303);
  });

  it('a form posted after the session expired returns to the page it came from after sign-in', async () => {
    const dave = await signInToConsole(t.url, 'dave');
    const token = await dave.csrfToken();
    await t.db.update(browserSessions).set({ expiresAt: new Date(Date.now() - 1000) });
    const res = await dave.browser.fetch(`${t.url}/console/organisations/new`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', referer: `${t.url}/console/organisations/new` },
      body: new URLSearchParams({ _csrf: token, name: 'Late' }),
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/auth/login?returnTo=${encodeURIComponent('/console/organisations/new')}`);
    // A referer elsewhere is not followed back.
    const elsewhere = await fetch(`${t.url}/console/organisations/new`, { method: 'POST', headers: { referer: 'https://evil.example/console/x' }, redirect: 'manual' });
    expect(elsewhere.headers.get('location')).toBe(`/auth/login?returnTo=${encodeURIComponent('/console')}`);
    alice = await signInToConsole(t.url, 'alice');
  });
});

describe('console in closed mode', () => {
  const groups: Record<string, string[]> = { alice: ['acme'], carol: ['acme'] };
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { TENANT_MODE: 'closed' }, userGroups: groups });
  });
  afterAll(() => t.close());

  it('puts people of one group in one tenant and shows a 403 page once the group claim is gone', async () => {
    const alice = await signInToConsole(t.url, 'alice');
    expect((await alice.post('/console/organisations/new', { name: 'Acme shared' })).status).toBe(303);
    const carol = await signInToConsole(t.url, 'carol');
    expect((await carol.get('/console/organisations')).html).toContain('Acme shared');
    groups.carol = [];
    await t.db.update(browserSessions).set({ refreshedAt: new Date(Date.now() - 10 * 60_000) });
    const refused = await carol.get('/console/organisations');
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('group claim');
    expect(refused.html).not.toContain('Acme shared');
  });
});
