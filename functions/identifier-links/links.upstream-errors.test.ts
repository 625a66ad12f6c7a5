import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../test/rig/postgres-server.ts';
import { createIdentifier, createScheme } from '../../test/rig/scheme-fixtures.ts';
import { dppLink, startLinkWorld, type LinkWorld } from './links.test-setup.ts';

/**
 * What a tenant is told when the resolver fails: a stable code and fixed text naming the service,
 * never an address, a host name or the resolver's own words; the detail is in the warn log with the
 * correlation id. A namespace the resolver does not know is the tenant's to fix: a 4xx naming it.
 */
let w: LinkWorld;
const logLines: string[] = [];
beforeAll(async () => {
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => void logLines.push(String(line)));
  w = await startLinkWorld('tenantA', { LOG_LEVEL: 'warn' });
});
afterAll(async () => {
  await w?.close();
  vi.restoreAllMocks();
});

const publish = (identifierId: string, href: string, headers: Record<string, string> = {}) =>
  w.t.call('POST', `/api/v1/identifiers/${identifierId}/links`, { token: w.token, body: { links: [dppLink({ href })] }, headers });
const ADDRESS = /127\.0\.0\.1|localhost|ECONN|\d+\.\d+\.\d+\.\d+|:\d{2,5}\b|https?:/;

describe('resolver failures on the link routes', () => {
  it.each([
    ['answers 503', 'error', 'The identity resolver is unavailable; try again later'],
    ['refuses our key (403)', 'forbidden', "The identity resolver refused this instance's credentials; check the instance's apiKey"],
  ] as const)('the resolver %s → 502 IDR_UNAVAILABLE with fixed text', async (_name, mode, error) => {
    w.idr.failNext(mode);
    const res = await publish(w.identifier.id, `https://example.com/${mode}`, { 'x-correlation-id': `corr-${mode}` });
    expect(res).toMatchObject({ status: 502, body: { error, code: 'IDR_UNAVAILABLE' } });
    expect(JSON.stringify(res.body)).not.toMatch(ADDRESS);
    const logged = logLines.map((l) => JSON.parse(l)).filter((l) => l.correlationId === `corr-${mode}` && l.level === 'warn');
    expect(logged.some((l) => typeof l.detail === 'string' && l.idrServiceInstanceId === w.instanceId), JSON.stringify(logged)).toBe(true);
  });

  it('a resolver that is not running → 502 with fixed text; the refused connection is only in the log', async () => {
    const before = logLines.length;
    const gone = `http://127.0.0.1:${await freePort()}`;
    // The instance keeps its config; the tenant's resolver is simply down (patched straight to a dead port).
    const { serviceInstances } = await import('../../db/schema/index.ts');
    const { eq } = await import('drizzle-orm');
    const [row] = await w.t.db.select().from(serviceInstances).where(eq(serviceInstances.id, w.instanceId));
    const config = await w.t.services.secretBox.decryptJson<Record<string, unknown>>(row!.configEncrypted);
    await w.t.db.update(serviceInstances).set({ configEncrypted: await w.t.services.secretBox.encryptJson({ ...config, baseUrl: gone }) }).where(eq(serviceInstances.id, w.instanceId));
    try {
      const res = await publish(w.identifier.id, 'https://example.com/down', { 'x-correlation-id': 'corr-down' });
      expect(res).toMatchObject({ status: 502, body: { error: 'The identity resolver is unavailable; try again later', code: 'IDR_UNAVAILABLE' } });
      expect(JSON.stringify(res.body)).not.toMatch(ADDRESS);
      expect(logLines.slice(before).some((l) => l.includes('corr-down') && /ECONNREFUSED|127\.0\.0\.1/.test(l))).toBe(true);
    } finally {
      await w.t.db.update(serviceInstances).set({ configEncrypted: row!.configEncrypted }).where(eq(serviceInstances.id, w.instanceId));
    }
  });

  it("a registrar namespace the resolver does not know → 422 IDR_NAMESPACE_UNKNOWN naming it; nothing published", async () => {
    const registrar = await w.t.call('POST', '/api/v1/registrars', {
      token: w.token,
      body: { name: 'Unregistered', namespace: 'acme-parts', url: 'https://parts.example.com', idrServiceInstanceId: w.instanceId },
    });
    expect(registrar.status).toBe(201);
    const scheme = await createScheme(w.t, w.token, { registrarId: registrar.body.id });
    const identifier = await createIdentifier(w.t, w.token, scheme.id);
    const res = await publish(identifier.id, 'https://example.com/unknown-namespace');
    expect(res).toMatchObject({
      status: 422,
      body: { error: "The identity resolver does not know the registrar's namespace 'acme-parts': register the namespace with the resolver first", code: 'IDR_NAMESPACE_UNKNOWN' },
    });
    expect([...w.idr.links.values()].some((l) => l.targetUrl === 'https://example.com/unknown-namespace')).toBe(false);
  });
});
