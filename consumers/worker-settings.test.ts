import { describe, expect, it } from 'vitest';
import { DEVELOPMENT_PLACEHOLDER_KEY } from '../core/settings/encryption-key.ts';
import { createTestDatabase } from '../test/rig/databases.ts';
import { runProgram } from '../test/rig/program.ts';
import { TEST_ENCRYPTION_KEY } from '../test/rig/test-settings.ts';

/**
 * The spec's worker settings table, one row at a time, against the worker program itself. The
 * database is unreachable on purpose: a setting that passes the preflight shows it by failing later,
 * at the first query (`Failed query`), so no row needs a database or starts a queue.
 */
const unreachable = 'postgres://postgres@127.0.0.1:1/none';
const base = { RI_APP_URL: 'http://localhost:3003', RI_DATABASE_URL: unreachable, DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, LOG_LEVEL: 'warn' };

const boot = async (env: Record<string, string>) => {
  const worker = runProgram('consumers/worker.ts', { ...base, ...env });
  const code = await worker.exited;
  const { stdout, stderr } = worker.output();
  const logs = stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { level: string; message: string; 'service.name'?: string });
  return { code, stderr: stderr.trim().split('\n'), warnings: logs.filter((l) => l.level === 'warn').map((l) => l.message), logs };
};

/** Passed the preflight: the only failure is the unreachable database, after every setting was read. */
const passedPreflight = (result: Awaited<ReturnType<typeof boot>>) => {
  expect(result.code).toBe(1);
  expect(result.stderr[0]).toMatch(/^Worker boot failed: Failed query: .* \[BOOT_FAILED\]$/);
  expect(result.stderr).toContain('  caused by: Error: connect ECONNREFUSED 127.0.0.1:1');
};

describe('worker preflight: a bad setting prints `Worker boot failed: <message> [<code>]` and exits 1 before the queue starts', () => {
  it.each<[string, Record<string, string>, string]>([
    ['WORKER_JOB_TIMEOUT_SECONDS below 30', { WORKER_JOB_TIMEOUT_SECONDS: '29' }, 'WORKER_JOB_TIMEOUT_SECONDS must be at least 30 [CONFIG_INVALID]'],
    ['WORKER_JOB_TIMEOUT_SECONDS above 86400', { WORKER_JOB_TIMEOUT_SECONDS: '86401' }, 'WORKER_JOB_TIMEOUT_SECONDS must be at most 86400 [CONFIG_INVALID]'],
    ['WORKER_JOB_TIMEOUT_SECONDS not an integer', { WORKER_JOB_TIMEOUT_SECONDS: '30.5' }, 'WORKER_JOB_TIMEOUT_SECONDS must be a non-negative integer, got "30.5" [CONFIG_INVALID]'],
    ['LIBRARY_RECONCILE_PENDING_RUNS_BATCH_SIZE 0', { LIBRARY_RECONCILE_PENDING_RUNS_BATCH_SIZE: '0' }, 'LIBRARY_RECONCILE_PENDING_RUNS_BATCH_SIZE must be at least 1 [CONFIG_INVALID]'],
    ['LIBRARY_RECONCILE_PENDING_RUNS_BATCH_SIZE above 10000', { LIBRARY_RECONCILE_PENDING_RUNS_BATCH_SIZE: '10001' }, 'LIBRARY_RECONCILE_PENDING_RUNS_BATCH_SIZE must be at most 10000 [CONFIG_INVALID]'],
    ['BATCH_JOB_CONCURRENCY 0', { BATCH_JOB_CONCURRENCY: '0' }, 'BATCH_JOB_CONCURRENCY must be at least 1 [CONFIG_INVALID]'],
    ['BATCH_JOB_RETRY_LIMIT not a number', { BATCH_JOB_RETRY_LIMIT: 'four' }, 'BATCH_JOB_RETRY_LIMIT must be a non-negative integer, got "four" [CONFIG_INVALID]'],
    ['BATCH_JOB_RETRY_BACKOFF_SECONDS 0', { BATCH_JOB_RETRY_BACKOFF_SECONDS: '0' }, 'BATCH_JOB_RETRY_BACKOFF_SECONDS must be at least 1 [CONFIG_INVALID]'],
    ['BATCH_JOB_RETRY_BACKOFF_MAX_SECONDS negative', { BATCH_JOB_RETRY_BACKOFF_MAX_SECONDS: '-1' }, 'BATCH_JOB_RETRY_BACKOFF_MAX_SECONDS must be a non-negative integer, got "-1" [CONFIG_INVALID]'],
    ['BATCH_EXPIRY_SWEEP_MINUTES 90 (not below 60, not a multiple of 60)', { BATCH_EXPIRY_SWEEP_MINUTES: '90' }, 'BATCH_EXPIRY_SWEEP_MINUTES must be below 60 or a multiple of 60 [CONFIG_INVALID]'],
    ['BATCH_EXPIRY_SWEEP_MINUTES 0', { BATCH_EXPIRY_SWEEP_MINUTES: '0' }, 'BATCH_EXPIRY_SWEEP_MINUTES must be at least 1 [CONFIG_INVALID]'],
    ['BATCH_RETENTION_DAYS 0', { BATCH_RETENTION_DAYS: '0' }, 'BATCH_RETENTION_DAYS must be at least 1 [CONFIG_INVALID]'],
    ['MAX_BATCH_ITEMS 0', { MAX_BATCH_ITEMS: '0' }, 'MAX_BATCH_ITEMS must be at least 1 [CONFIG_INVALID]'],
    ['WORKER_HEARTBEAT_MAX_AGE_SECONDS not numeric', { WORKER_HEARTBEAT_MAX_AGE_SECONDS: 'half a minute' }, 'WORKER_HEARTBEAT_MAX_AGE_SECONDS must be a positive number, got "half a minute" [CONFIG_INVALID]'],
    ['WORKER_HEARTBEAT_PATH is a folder', { WORKER_HEARTBEAT_PATH: '/tmp' }, 'WORKER_HEARTBEAT_PATH: "/tmp" is a folder, not a file [CONFIG_INVALID]'],
    ['DATA_ENCRYPTION_KEY absent', { DATA_ENCRYPTION_KEY: '' }, 'DATA_ENCRYPTION_KEY is required (64 hexadecimal characters) [ENCRYPTION_KEY_MISSING]'],
    ['DATA_ENCRYPTION_KEY malformed', { DATA_ENCRYPTION_KEY: 'abc' }, 'DATA_ENCRYPTION_KEY must be exactly 64 hexadecimal characters [ENCRYPTION_KEY_MALFORMED]'],
    [
      'DATA_ENCRYPTION_KEY the development placeholder outside local development',
      { DATA_ENCRYPTION_KEY: DEVELOPMENT_PLACEHOLDER_KEY, DEPLOYMENT_ENVIRONMENT: 'production' },
      'DATA_ENCRYPTION_KEY is the development placeholder, refused when DEPLOYMENT_ENVIRONMENT is "production" [ENCRYPTION_KEY_PLACEHOLDER]',
    ],
    ['CACHE_MAX_ENTRIES 0', { CACHE_MAX_ENTRIES: '0' }, 'CACHE_MAX_ENTRIES must be a positive integer, got "0" [CONFIG_INVALID]'],
    ['RI_HTTP_USER_AGENT with a control character', { RI_HTTP_USER_AGENT: 'agent\tname' }, 'RI_HTTP_USER_AGENT must be non-blank Latin-1 text without control characters [CONFIG_INVALID]'],
    ['RI_HTTP_USER_AGENT outside Latin-1', { RI_HTTP_USER_AGENT: 'agent → name' }, 'RI_HTTP_USER_AGENT must be non-blank Latin-1 text without control characters [CONFIG_INVALID]'],
    ['RI_APP_URL absent', { RI_APP_URL: '' }, 'RI_APP_URL is required [CONFIG_INVALID]'],
    ['RI_APP_URL not http(s)', { RI_APP_URL: 'ftp://app.example.com' }, 'RI_APP_URL must use http or https [CONFIG_INVALID]'],
    ['RI_APP_URL with a username and password', { RI_APP_URL: 'https://u:p@app.example.com' }, 'RI_APP_URL must not contain a username or password [CONFIG_INVALID]'],
    [
      'FETCH_ALLOW_PRIVATE_URLS and VERIFY_ALLOW_PRIVATE_URLS both set',
      { FETCH_ALLOW_PRIVATE_URLS: 'true', VERIFY_ALLOW_PRIVATE_URLS: 'true' },
      'Set FETCH_ALLOW_PRIVATE_URLS or the legacy VERIFY_ALLOW_PRIVATE_URLS, not both [CONFIG_INVALID]',
    ],
    [
      'CREDENTIAL_STATUS_DEFAULT_PURPOSES with two purposes while multiple purposes are off',
      { CREDENTIAL_STATUS_DEFAULT_PURPOSES: 'revocation,suspension' },
      'CREDENTIAL_STATUS_DEFAULT_PURPOSES lists more than one purpose; set CREDENTIAL_STATUS_MULTIPLE_PURPOSES_ENABLED=true to allow it [CONFIG_INVALID]',
    ],
    [
      'CREDENTIAL_STATUS_DEFAULT_PURPOSES with an unknown purpose',
      { CREDENTIAL_STATUS_DEFAULT_PURPOSES: 'expiry' },
      'CREDENTIAL_STATUS_DEFAULT_PURPOSES must list revocation and/or suspension separated by commas, or be none alone; got "expiry" [CONFIG_INVALID]',
    ],
    [
      'CREDENTIAL_STATUS_DEFAULT_PURPOSES with a repeated purpose',
      { CREDENTIAL_STATUS_DEFAULT_PURPOSES: 'revocation,revocation', CREDENTIAL_STATUS_MULTIPLE_PURPOSES_ENABLED: 'true' },
      'CREDENTIAL_STATUS_DEFAULT_PURPOSES must not repeat a purpose; got "revocation,revocation" [CONFIG_INVALID]',
    ],
    [
      'CREDENTIAL_STATUS_DEFAULT_PURPOSES with none beside a purpose',
      { CREDENTIAL_STATUS_DEFAULT_PURPOSES: 'none,revocation' },
      'CREDENTIAL_STATUS_DEFAULT_PURPOSES must list revocation and/or suspension separated by commas, or be none alone; got "none,revocation" [CONFIG_INVALID]',
    ],
    [
      'CREDENTIAL_STATUS_MULTIPLE_PURPOSES_ENABLED neither true nor false',
      { CREDENTIAL_STATUS_MULTIPLE_PURPOSES_ENABLED: 'yes' },
      'CREDENTIAL_STATUS_MULTIPLE_PURPOSES_ENABLED must be one of true, false, got "yes" [CONFIG_INVALID]',
    ],
    ['LOG_REDACT_PATHS with an empty segment', { LOG_REDACT_PATHS: 'request..email' }, 'LOG_REDACT_PATHS: "request..email" is not a path of field names or * separated by dots [CONFIG_INVALID]'],
  ])('%s', async (_row, env, message) => {
    const result = await boot(env);
    expect(result.code).toBe(1);
    expect(result.stderr).toEqual([`Worker boot failed: ${message}`]);
  });

  it('an invalid cron expression names the variable, then prints the parser error as the cause', async () => {
    const result = await boot({ LIBRARY_RECONCILE_PENDING_RUNS_CRON: 'every ten minutes' });
    expect(result.code).toBe(1);
    expect(result.stderr[0]).toBe('Worker boot failed: LIBRARY_RECONCILE_PENDING_RUNS_CRON is not a valid cron expression: "every ten minutes" [CONFIG_INVALID]');
    expect(result.stderr[1]).toMatch(/^ {2}caused by: Error: .+/);
    expect(result.stderr).toHaveLength(2);
  });

  it('a heartbeat path in a folder that does not exist fails with the file system error as the cause', async () => {
    const result = await boot({ WORKER_HEARTBEAT_PATH: '/nonexistent-folder/heartbeat' });
    expect(result.code).toBe(1);
    expect(result.stderr).toEqual([
      'Worker boot failed: WORKER_HEARTBEAT_PATH: folder "/nonexistent-folder" is not writable [CONFIG_INVALID]',
      "  caused by: Error: ENOENT: no such file or directory, access '/nonexistent-folder'",
    ]);
  });

  it('DATA_ENCRYPTION_KEY that does not open the existing encrypted data fails boot', async () => {
    const database = await createTestDatabase();
    try {
      const result = await boot({ RI_DATABASE_URL: database.url, DATA_ENCRYPTION_KEY: 'f'.repeat(64) });
      expect(result.code).toBe(1);
      expect(result.stderr[0]).toBe('Worker boot failed: DATA_ENCRYPTION_KEY cannot decrypt existing data [ENCRYPTION_KEY_MISMATCH]');
    } finally {
      await database.drop();
    }
  });
});

describe('worker preflight: settings that warn or fall back, and settings the worker does not check', () => {
  it.each([
    ['SCHEMA_CACHE_TTL_MS', 'soon'],
    ['SCHEMA_CACHE_TTL_MS', '-1'],
    ['CONTEXT_CACHE_TTL_MS', 'Infinity'],
  ])('%s=%s logs a warning and falls back to one hour; boot goes on', async (name, value) => {
    const result = await boot({ [name]: value });
    passedPreflight(result);
    expect(result.warnings).toEqual([`${name} must be a non-negative finite number of milliseconds, got "${value}"; using 3600000`]);
  });

  it('CREDENTIAL_STATUS_LOCK_ACQUIRE_MS that does not begin with a positive integer warns and uses 2000; one that does is used silently', async () => {
    const bad = await boot({ CREDENTIAL_STATUS_LOCK_ACQUIRE_MS: 'soon' });
    passedPreflight(bad);
    expect(bad.warnings).toEqual(['CREDENTIAL_STATUS_LOCK_ACQUIRE_MS must begin with a positive integer, got "soon"; using 2000']);
    const good = await boot({ CREDENTIAL_STATUS_LOCK_ACQUIRE_MS: '250ms' });
    passedPreflight(good);
    expect(good.warnings).toEqual([]);
  });

  it('CREDENTIAL_STATUS_DEFAULT_PURPOSES=none logs a warning; two purposes boot when multiple purposes are enabled', async () => {
    const none = await boot({ CREDENTIAL_STATUS_DEFAULT_PURPOSES: 'none' });
    passedPreflight(none);
    expect(none.warnings).toEqual([
      'CREDENTIAL_STATUS_DEFAULT_PURPOSES=none: credentials are issued without a status entry and cannot be revoked or suspended',
    ]);
    const both = await boot({ CREDENTIAL_STATUS_DEFAULT_PURPOSES: 'suspension, revocation', CREDENTIAL_STATUS_MULTIPLE_PURPOSES_ENABLED: 'true' });
    passedPreflight(both);
    expect(both.warnings).toEqual([]);
  });

  it('the legacy VERIFY_ALLOW_PRIVATE_URLS alone is read with a warning', async () => {
    const result = await boot({ VERIFY_ALLOW_PRIVATE_URLS: 'true' });
    passedPreflight(result);
    expect(result.warnings).toEqual(['VERIFY_ALLOW_PRIVATE_URLS is deprecated; use FETCH_ALLOW_PRIVATE_URLS']);
  });

  it('FETCH_ALLOW_PRIVATE_URLS other than exactly true keeps protection on without failing boot', async () => {
    passedPreflight(await boot({ FETCH_ALLOW_PRIVATE_URLS: 'yes' }));
  });

  it('LIBRARY_STORED_COPY_READ_TIMEOUT_MS is not read, and web-only settings are not checked', async () => {
    const result = await boot({
      LIBRARY_STORED_COPY_READ_TIMEOUT_MS: 'not a number',
      MAX_REQUEST_BODY_BYTES: '12',
      IDEMPOTENCY_STALE_CLAIM_MINUTES: 'never',
    });
    passedPreflight(result);
    expect(result.warnings).toEqual([]);
  });

  it('unset and blank values use the defaults', async () => {
    const blank = Object.fromEntries(
      [
        'WORKER_JOB_TIMEOUT_SECONDS',
        'LIBRARY_RECONCILE_PENDING_RUNS_CRON',
        'LIBRARY_RECONCILE_PENDING_RUNS_BATCH_SIZE',
        'BATCH_JOB_CONCURRENCY',
        'BATCH_JOB_RETRY_LIMIT',
        'BATCH_JOB_RETRY_BACKOFF_SECONDS',
        'BATCH_JOB_RETRY_BACKOFF_MAX_SECONDS',
        'BATCH_EXPIRY_SWEEP_MINUTES',
        'BATCH_RETENTION_DAYS',
        'MAX_BATCH_ITEMS',
        'WORKER_HEARTBEAT_PATH',
        'WORKER_HEARTBEAT_MAX_AGE_SECONDS',
        'OTEL_WORKER_SERVICE_NAME',
        'SCHEMA_CACHE_TTL_MS',
        'CONTEXT_CACHE_TTL_MS',
        'CACHE_MAX_ENTRIES',
        'RI_HTTP_USER_AGENT',
        'CREDENTIAL_STATUS_DEFAULT_PURPOSES',
        'CREDENTIAL_STATUS_MULTIPLE_PURPOSES_ENABLED',
        'CREDENTIAL_STATUS_LOCK_ACQUIRE_MS',
        'LOG_REDACT_PATHS',
      ].map((name) => [name, '  ']),
    );
    const result = await boot(blank);
    passedPreflight(result);
    expect(result.warnings).toEqual([]);
  });

  it('OTEL_WORKER_SERVICE_NAME is emitted as service.name on every log line (default when blank)', async () => {
    const named = await boot({ OTEL_WORKER_SERVICE_NAME: 'reference-implementation-worker', VERIFY_ALLOW_PRIVATE_URLS: 'false' });
    expect(named.logs.length).toBeGreaterThan(0);
    expect(named.logs.every((l) => l['service.name'] === 'reference-implementation-worker')).toBe(true);
    const blank = await boot({ OTEL_WORKER_SERVICE_NAME: ' ', VERIFY_ALLOW_PRIVATE_URLS: 'false' });
    expect(blank.logs.map((l) => l['service.name'])).toEqual(['credential-support-service-worker']);
  });
});
