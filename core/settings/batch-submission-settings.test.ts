import { describe, expect, it } from 'vitest';
import { readWebSettings } from './web-settings.ts';
import { readWorkerSettings } from './worker-settings.ts';

const web = { RI_APP_URL: 'http://localhost:3003', AUTH_OIDC_ISSUER: 'http://localhost:3005', DATA_ENCRYPTION_KEY: 'ab'.repeat(32) };
const worker = { RI_APP_URL: 'http://localhost:3003', DATA_ENCRYPTION_KEY: 'ab'.repeat(32) };

describe('batch submission settings', () => {
  it('defaults: 500 items, a 50 MiB batch body, a 300 s first job', () => {
    expect(readWebSettings(web).batches).toEqual({ maxItems: 500, maxRequestBodyBytes: 52_428_800, jobTimeoutSeconds: 300 });
  });

  it('an invalid MAX_BATCH_ITEMS fails boot of both roles', () => {
    for (const value of ['0', '-1', 'many', '1.5']) {
      expect(() => readWebSettings({ ...web, MAX_BATCH_ITEMS: value }), value).toThrow(/MAX_BATCH_ITEMS/);
      expect(() => readWorkerSettings({ ...worker, MAX_BATCH_ITEMS: value }), value).toThrow(/MAX_BATCH_ITEMS/);
    }
    expect(readWebSettings({ ...web, MAX_BATCH_ITEMS: '7' }).batches.maxItems).toBe(7);
  });

  it('MAX_BATCH_REQUEST_BODY_BYTES is at least MAX_REQUEST_BODY_BYTES; WORKER_JOB_TIMEOUT_SECONDS is 30 to 86400', () => {
    expect(() => readWebSettings({ ...web, MAX_REQUEST_BODY_BYTES: '4096', MAX_BATCH_REQUEST_BODY_BYTES: '2048' })).toThrow(/MAX_BATCH_REQUEST_BODY_BYTES/);
    expect(readWebSettings({ ...web, MAX_REQUEST_BODY_BYTES: '4096', MAX_BATCH_REQUEST_BODY_BYTES: '4096' }).batches.maxRequestBodyBytes).toBe(4096);
    expect(() => readWebSettings({ ...web, WORKER_JOB_TIMEOUT_SECONDS: '29' })).toThrow(/WORKER_JOB_TIMEOUT_SECONDS/);
    expect(readWebSettings({ ...web, WORKER_JOB_TIMEOUT_SECONDS: '86400' }).batches.jobTimeoutSeconds).toBe(86_400);
  });
});
