import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInToConsole, type ConsoleUser } from '../../test/rig/console-user.ts';
import { startLibraryRig, type LibraryRig } from '../../test/rig/library-fixtures.ts';

const MISSING = 'zzzzzzzzzzzzzzzzzzzzzzzz';
const withoutVolatile = (html: string) => html.replace(/nonce="[^"]+"|[0-9a-f]{64}|value="[0-9a-f-]{36}"/g, '');

/** Issue 32 item 7: a received credential registered by URL (and key), its checks, verified again, tagged and annotated. */
describe('console: the library', () => {
  let rig: LibraryRig;
  let alice: ConsoleUser;
  let bob: ConsoleUser;
  let plain: Awaited<ReturnType<LibraryRig['issue']>>;
  let sealed: Awaited<ReturnType<LibraryRig['issue']>>;
  let recordId: string;

  const register = (user: ConsoleUser, form: Record<string, string>) =>
    user.post('/console/library/new', { displayName: 'Passport from a supplier', declaredCredentialType: 'DPP', ...form });

  beforeAll(async () => {
    rig = await startLibraryRig();
    [alice, bob] = await Promise.all([signInToConsole(rig.t.url, 'alice'), signInToConsole(rig.t.url, 'bob')]);
    plain = await rig.issue({ encrypt: false });
    sealed = await rig.issue();
  }, 60_000);
  afterAll(() => rig?.close());

  it('registers a credential by URL, shows it pending, then every check once the worker has verified it', async () => {
    const page = await alice.get('/console/library');
    expect(page.status).toBe(200);
    for (const name of ['sourceUrl', 'decryptionKey', 'displayName', 'declaredCredentialType', 'dateReceived', 'notes', 'tags']) expect(page.html).toContain(`name="${name}"`);
    const res = await register(alice, { sourceUrl: plain.storageUri, tags: 'supplier-a, batch-7', notes: 'From the portal', dateReceived: '2026-11-01', registrationKey: crypto.randomUUID() });
    expect(res.status, res.html).toBe(303);
    recordId = res.location!.match(/^\/console\/library\/([a-z0-9]+)$/)![1]!;
    const pending = await alice.get(res.location!);
    expect(pending.status).toBe(200);
    expect(pending.html).toContain('Verification 1: pending');
    expect(pending.html).toContain('supplier-a, batch-7');
    await rig.verifyPending(recordId);
    const verified = await alice.get(res.location!);
    expect(verified.html).toContain('Verification 1: verified');
    for (const check of ['retrieval', 'decryption', 'digest', 'proof', 'status', 'temporal', 'schemaConformance']) expect(verified.html).toContain(`${check}: pass`);
    const list = await alice.get('/console/library');
    expect(list.html).toContain(`href="/console/library/${recordId}"`);
  });

  it('opens an encrypted source with its key, and the key shows nowhere afterwards', async () => {
    const res = await register(alice, { sourceUrl: sealed.storageUri, decryptionKey: sealed.decryptionKey!, displayName: 'Sealed passport' });
    expect(res.status, res.html).toBe(303);
    expect(res.html).not.toContain(sealed.decryptionKey);
    const record = await alice.get(res.location!);
    expect(record.html).toContain('Sealed passport');
    expect(record.html).not.toContain(sealed.decryptionKey);
  });

  it('shows the problems beside the fields, keeps what was typed, and writes nothing', async () => {
    const before = (await alice.get('/console/library')).html.match(/(\d+) records?/)![1];
    const blank = await register(alice, { sourceUrl: plain.storageUri, displayName: '', tags: 'Not A Tag' });
    expect(blank.status).toBe(400);
    expect(blank.html).toMatch(/id="displayName-error">[^<]+</);
    expect(blank.html).toContain(`value="${plain.storageUri}"`);
    const badTag = await register(alice, { sourceUrl: plain.storageUri, tags: 'Not_A_Tag' });
    expect(badTag.status).toBe(400);
    expect(badTag.html).toMatch(/id="tags-error">must be lower-case/);
    const badKey = await register(alice, { sourceUrl: sealed.storageUri, decryptionKey: 'abc' });
    expect(badKey.status).toBe(400);
    expect(badKey.html).toMatch(/id="decryptionKey-error">/);
    const unreachable = await register(alice, { sourceUrl: `${plain.storageUri}.missing` });
    expect(unreachable.status).toBe(422);
    expect(unreachable.html).toMatch(/id="sourceUrl-error">[^<]+</);
    const again = await register(alice, { sourceUrl: plain.storageUri });
    expect(again.status).toBe(409);
    expect(again.html).toContain(recordId);
    expect((await alice.get('/console/library')).html.match(/(\d+) records?/)![1]).toBe(before);
  });

  it('verifies again (the next generation, pending until the worker runs), tags and annotates, showing typed text as text', async () => {
    const verify = await alice.post(`/console/library/${recordId}/verify`, {});
    expect(verify.status).toBe(303);
    expect((await alice.get(`/console/library/${recordId}`)).html).toContain('Verification 2: pending');
    const tags = await alice.post(`/console/library/${recordId}/tags`, { tagVersion: '1', tags: 'audited' });
    expect(tags.status, tags.html).toBe(303);
    const stale = await alice.post(`/console/library/${recordId}/tags`, { tagVersion: '1', tags: 'other' });
    expect(stale.status).toBe(409);
    expect(stale.html).toContain('stale');
    const badTags = await alice.post(`/console/library/${recordId}/tags`, { tagVersion: '2', tags: 'Bad Tag!' });
    expect(badTags.status).toBe(400);
    expect(badTags.html).toMatch(/id="tags-error">/);
    const xss = '<img src=x onerror=alert(1)>';
    const annotate = await alice.post(`/console/library/${recordId}/annotations`, { annotationVersion: '1', displayName: xss, declaredCredentialType: 'DCC', dateReceived: '', notes: 'checked' });
    expect(annotate.status, annotate.html).toBe(303);
    const page = await alice.get(`/console/library/${recordId}`);
    expect(page.html).toContain('audited');
    expect(page.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page.html).not.toContain(xss);
    expect(page.html).toMatch(/<option value="DCC" selected/);
    const badDate = await alice.post(`/console/library/${recordId}/annotations`, { annotationVersion: '2', displayName: 'x', declaredCredentialType: 'DPP', dateReceived: '2026-02-30' });
    expect(badDate.status).toBe(400);
    expect(badDate.html).toMatch(/id="dateReceived-error">must be a calendar date/);
  });

  it('lists by verification summary, which the dashboard links to', async () => {
    const dashboard = await alice.get('/console');
    expect(dashboard.html).toContain('href="/console/library?status=pending"');
    expect(dashboard.html).toContain('href="/console/library?status=failed"');
    const pending = await alice.get('/console/library?status=pending');
    expect(pending.html).toContain(`href="/console/library/${recordId}"`);
    const failed = await alice.get('/console/library?status=failed');
    expect(failed.html).not.toContain(`href="/console/library/${recordId}"`);
  });

  it("another tenant's record is a 404 identical to a missing one, on every page and form", async () => {
    const missing = await bob.get(`/console/library/${MISSING}`);
    expect(missing.status).toBe(404);
    const foreign = await bob.get(`/console/library/${recordId}`);
    expect(foreign.status).toBe(404);
    expect(withoutVolatile(foreign.html).replace(recordId, MISSING)).toBe(withoutVolatile(missing.html));
    for (const [path, form] of [
      ['verify', {}],
      ['tags', { tagVersion: '2', tags: 'mine' }],
      ['annotations', { annotationVersion: '2', displayName: 'Mine', declaredCredentialType: 'DPP' }],
    ] as const) {
      expect((await bob.post(`/console/library/${recordId}/${path}`, form)).status).toBe(404);
    }
    expect((await bob.get('/console/library')).html).not.toContain(recordId);
    expect((await alice.get(`/console/library/${recordId}`)).html).toContain('audited');
  });

  it('refuses every form without the CSRF token', async () => {
    const forms: [string, Record<string, string>][] = [
      ['/console/library/new', { sourceUrl: plain.storageUri, displayName: 'x', declaredCredentialType: 'DPP' }],
      [`/console/library/${recordId}/verify`, {}],
      [`/console/library/${recordId}/tags`, { tagVersion: '2', tags: 'x' }],
      [`/console/library/${recordId}/annotations`, { annotationVersion: '2', displayName: 'x', declaredCredentialType: 'DPP' }],
    ];
    for (const [path, form] of forms) expect((await alice.post(path, form, { csrf: false })).status).toBe(403);
    expect((await alice.get(`/console/library/${recordId}`)).html).toContain('audited');
  });
});
