import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tenantSafeReason } from '../../core/adapters/adapter-failure.ts';
import { startTestApp, type TestApp } from '../rig/test-app.ts';

/** Tenants get a stable code and a short message; the detail (addresses included) goes to the log. */
const DPP_070 = 'ca3frzta22f7lblxntvw6ukuh';
let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await startTestApp({ env: { FETCH_ALLOW_PRIVATE_URLS: 'true' } });
  token = await t.token('tenantA');
});
afterAll(() => t.close());

const storageAt = async (baseUrl: string, name: string) => {
  const res = await t.call('POST', '/api/v1/services', {
    token,
    body: { serviceType: 'STORAGE', adapterType: 'STORAGE_ADAPTER', name, config: { baseUrl, apiKey: 'k', publicBucket: 'documents', privateBucket: 'files' } },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
};

describe('an unreachable storage service', () => {
  it('is a 502 STORAGE_UNAVAILABLE without the internal address; the detail is logged at warn with the correlation id', async () => {
    const storageId = await storageAt('http://127.0.0.1:1', 'Down');
    const warn = vi.spyOn(t.services.logger, 'warn');
    const res = await t.call('POST', '/api/v1/render-templates', {
      token,
      headers: { 'x-correlation-id': 'upstream-failure-1' },
      body: { name: 'Card', dataModelId: DPP_070, renderMethodType: 'RenderTemplate2024', template: '<p>x</p>', storageOptions: { serviceInstanceId: storageId } },
    });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ error: 'The storage service is unavailable; could not store the template', code: 'STORAGE_UNAVAILABLE' });
    const logged = warn.mock.calls.find(([message]) => message === 'Upstream service failed');
    expect(logged?.[1]).toMatchObject({ correlationId: 'upstream-failure-1', service: 'STORAGE', kind: 'unavailable', detail: expect.stringContaining('127.0.0.1:1') });
    warn.mockRestore();
  });
});

describe('tenantSafeReason', () => {
  it.each([
    ['STORAGE service unreachable: 127.0.0.1:7334: read ECONNRESET', 'STORAGE service unreachable: <address>: read ECONNRESET'],
    ['fetch http://10.0.0.5:8080/api/v4 failed', 'fetch <address> failed'],
    ['connect to [fd00::1]:443 refused', 'connect to <address> refused'],
    ['storage.internal:9000 said no', '<address> said no'],
    ['hreflang must be xx or xx-xx', 'hreflang must be xx or xx-xx'],
  ])('%s', (raw, safe) => expect(tenantSafeReason(raw)).toBe(safe));

  it('one line, at most 200 characters', () => {
    const reason = tenantSafeReason(`<html>\n${'x'.repeat(500)}`);
    expect(reason).not.toContain('\n');
    expect(reason.length).toBe(201);
  });
});
