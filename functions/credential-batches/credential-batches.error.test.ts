import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expireBatches } from '../../core/batches/expire-batches.ts';
import { createLogger } from '../../core/logging/logger.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';
import { BATCHES, batchCount, batchRow, item, itemRows, submit } from '../../test/rig/batch-submission.ts';

let t: TestApp;
let token: string;

beforeAll(async () => {
  // Small limits: an item may be 1 KiB of compact JSON, a batch body 8 KiB, three items.
  t = await startTestApp({ env: { MAX_REQUEST_BODY_BYTES: '1024', MAX_BATCH_REQUEST_BODY_BYTES: '8192', MAX_BATCH_ITEMS: '3' } });
  token = await t.token('tenantA');
});
afterAll(() => t.close());

/** A 400 naming the field, with nothing written. */
const refused = async (body: unknown, message: string | RegExp, code = 'VALIDATION_FAILED', key?: string | null) => {
  const before = await batchCount(t.db);
  const res = await submit(t, token, body, key);
  expect(res.status, res.text).toBe(400);
  expect(res.body.code).toBe(code);
  if (typeof message === 'string') expect(res.body.error).toBe(message);
  else expect(res.body.error).toMatch(message);
  expect(await batchCount(t.db)).toBe(before);
};

describe('POST /credentials/batches refusals', () => {
  it('the Idempotency-Key header is required and well-formed', async () => {
    await refused({ items: [item()] }, 'Idempotency-Key: is required', 'VALIDATION_FAILED', null);
    const blank = await submit(t, token, { items: [item()] }, '   ');
    expect(blank.status).toBe(400);
    expect(blank.body.error).toBe('Idempotency-Key: must not be blank');
    const long = await submit(t, token, { items: [item()] }, 'k'.repeat(256));
    expect(long.body.error).toMatch(/^Idempotency-Key: must be at most 255/);
  });

  it('items: required, an array, not empty, at most MAX_BATCH_ITEMS (BATCH_TOO_LARGE)', async () => {
    await refused({}, 'items: is required');
    await refused({ items: 'x' }, 'items: must be an array');
    await refused({ items: [] }, 'items: must contain at least one item');
    await refused({ items: [item(), item(), item(), item()] }, 'items: a batch holds at most 3 items (MAX_BATCH_ITEMS); got 4', 'BATCH_TOO_LARGE');
    await refused([item()], /^body: /);
  });

  it('each item is validated as a single issuance, the path naming the item', async () => {
    await refused({ items: [item(), 'text'] }, 'items[1]: must be a JSON object');
    await refused({ items: [item(), item({ credentialType: '  ' })] }, 'items[1].credentialType: must contain a non-whitespace character');
    await refused({ items: [item(), item(), item({ version: undefined })] }, 'items[2].version: is required');
    await refused({ items: [item({ storageOptions: null })] }, 'items[0].storageOptions: must not be null');
    await refused(
      { items: [item({ credentialPayload: { credentialStatus: {} } })] },
      /^items\[0\]\.credentialPayload\.credentialStatus: /,
      'CREDENTIAL_STATUS_NOT_ACCEPTED',
    );
    await refused({ items: [item({ statusPurposes: ['revocation', 'revocation'] })] }, /^items\[0\]\.statusPurposes\[1\]: must not repeat/);
  });

  it('references: strings of 1 to 200 characters without control characters, unique in the batch', async () => {
    await refused({ items: [item({ reference: 'a' }), item(), item({ reference: 'a' })] }, 'items[2].reference: must be unique within the batch; duplicates items[0].reference');
    await refused({ items: [item({ reference: 5 })] }, 'items[0].reference: must be a string');
    await refused({ items: [item({ reference: ' ' })] }, 'items[0].reference: must contain a non-whitespace character');
    await refused({ items: [item({ reference: 'r'.repeat(201) })] }, 'items[0].reference: must be at most 200 characters');
    await refused({ items: [item({ reference: 'line\nbreak' })] }, 'items[0].reference: must not contain control characters');
    expect((await submit(t, token, { items: [item({ reference: 'r'.repeat(200) })] })).status).toBe(202);
  });

  it('an item over MAX_REQUEST_BODY_BYTES as compact JSON is refused by index; the batch body has its own, larger limit', async () => {
    const big = item({ credentialPayload: { note: 'x'.repeat(1100) } });
    await refused({ items: [item(), big] }, /^items\[1\]: is \d+ bytes as compact JSON; an item may be at most 1024 bytes$/);
    // Three items of ~900 bytes: over the single-request limit in total, within the batch body limit.
    const fits = item({ credentialPayload: { note: 'x'.repeat(800) } });
    expect((await submit(t, token, { items: [fits, fits, fits] })).status).toBe(202);
    const before = await batchCount(t.db);
    const tooLarge = await t.call('POST', BATCHES, {
      token,
      rawBody: JSON.stringify({ items: [item()], padding: 'p'.repeat(9000) }),
      headers: { 'idempotency-key': 'too-large' },
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.code).toBe('REQUEST_BODY_TOO_LARGE');
    expect(await batchCount(t.db)).toBe(before);
  });

  it('the same key with another body: 422 IDEMPOTENCY_KEY_MISMATCH, nothing written', async () => {
    await submit(t, token, { items: [item({ reference: 'one' })] }, 'mismatch-key');
    const before = await batchCount(t.db);
    const res = await submit(t, token, { items: [item({ reference: 'two' })] }, 'mismatch-key');
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('IDEMPOTENCY_KEY_MISMATCH');
    expect(await batchCount(t.db)).toBe(before);
  });
});

describe('expired batches', () => {
  it('replay, status and cancel all answer 410 BATCH_EXPIRED with the tombstone', async () => {
    const body = { items: [item(), item()] };
    const { body: accepted } = await submit(t, token, body, 'expired-key');
    await t.call('POST', `${accepted.status}/cancel`, { token });
    await t.db.execute(sql`update credential_batches set state = 'CANCELLED', settled_at = now() - interval '31 days', expires_at = now() - interval '1 day' where id = ${accepted.batchId}`);
    expect(await expireBatches({ db: t.db, logger: createLogger('error'), batchSize: 10 })).toContain(accepted.batchId);
    const row = await batchRow(t.db, accepted.batchId);

    const tombstone = {
      error: 'This credential batch has expired. Its credentials were not deleted.',
      code: 'BATCH_EXPIRED',
      id: accepted.batchId,
      state: 'EXPIRED',
      counts: { total: 2, queued: 0, processing: 0, issued: 0, failed: 0, unknown: 0, cancelled: 2 },
      idempotencyKey: 'expired-key',
      bodyDigest: row!.bodyDigest,
      items: [],
    };
    const status = await t.call('GET', accepted.status, { token });
    expect(status.status).toBe(410);
    expect(status.headers.get('cache-control')).toBe('no-store');
    expect(status.body).toMatchObject(tombstone);
    const replay = await submit(t, token, body, 'expired-key');
    expect(replay.status).toBe(410);
    expect(replay.body).toEqual(status.body);
    const cancel = await t.call('POST', `${accepted.status}/cancel`, { token });
    expect(cancel.status).toBe(410);
    expect(cancel.body).toEqual(status.body);
    expect(await itemRows(t.db, accepted.batchId)).toEqual([]);
  });
});

describe('POST /credentials/batches/{id}/cancel refusals', () => {
  it('any body is a 400 and writes nothing', async () => {
    const { body } = await submit(t, token, { items: [item()] });
    for (const rawBody of ['{}', 'null', '{"reason":"x"}']) {
      const res = await t.call('POST', `${body.status}/cancel`, { token, rawBody });
      expect(res.status, rawBody).toBe(400);
    }
    const res = await t.call('POST', `${body.status}/cancel`, { token, rawBody: '{}' });
    expect(res.body.error).toBe('Send this request without a body.');
    expect((await batchRow(t.db, body.batchId))!.cancelRequestedAt).toBeNull();
  });

  it('409 BATCH_NOT_CANCELLABLE for COMPLETED, NEEDS_ATTENTION and settled CANCELLED batches, with no write', async () => {
    for (const state of ['COMPLETED', 'NEEDS_ATTENTION', 'CANCELLED']) {
      const { body } = await submit(t, token, { items: [item()] });
      await t.db.execute(sql`update credential_batch_items set state = 'ISSUED' where batch_id = ${body.batchId}`);
      await t.db.execute(sql`update credential_batches set state = ${state}::batch_state, queued_count = 0, issued_count = 1, settled_at = now() where id = ${body.batchId}`);
      const before = await batchRow(t.db, body.batchId);
      const res = await t.call('POST', `${body.status}/cancel`, { token });
      expect(res.status, state).toBe(409);
      expect(res.body.code).toBe('BATCH_NOT_CANCELLABLE');
      expect(await batchRow(t.db, body.batchId)).toEqual(before);
    }
  });
});

describe('counter drift', () => {
  it('stored counts that disagree with the items: 500 on status and cancel, logged, nothing repaired or written', async () => {
    const { body } = await submit(t, token, { items: [item(), item()] });
    // Still summing to the total, but one item is counted as failed while both are queued.
    await t.db.execute(sql`update credential_batches set queued_count = 1, failed_count = 1 where id = ${body.batchId}`);
    const before = await batchRow(t.db, body.batchId);
    const lines: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(String(line)));
    try {
      const status = await t.call('GET', body.status, { token });
      expect(status.status).toBe(500);
      expect(status.body.code).toBe('INTERNAL_ERROR');
      const cancel = await t.call('POST', `${body.status}/cancel`, { token });
      expect(cancel.status).toBe(500);
    } finally {
      spy.mockRestore();
    }
    expect(lines.filter((l) => l.includes('BatchCountsDrift') || l.includes(`Batch ${body.batchId}: stored counts`))).toHaveLength(2);
    expect(await batchRow(t.db, body.batchId)).toEqual(before);
    expect((await itemRows(t.db, body.batchId)).map((i) => i.state)).toEqual(['QUEUED', 'QUEUED']);
  });

  it('counts that do not sum to the total are a 500 as well', async () => {
    const { body } = await submit(t, token, { items: [item()] });
    await t.db.execute(sql`update credential_batches set issued_count = 1 where id = ${body.batchId}`);
    const spy = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      expect((await t.call('GET', body.status, { token })).status).toBe(500);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('large submissions, parsed in bounded steps', () => {
  // Bodies over 64 KiB take the stepped parse: the answers are those of a small body.
  let large: TestApp;
  let largeToken: string;
  beforeAll(async () => {
    large = await startTestApp({ env: { MAX_BATCH_ITEMS: '3', MAX_REQUEST_BODY_BYTES: '65536', MAX_BATCH_REQUEST_BODY_BYTES: String(1024 * 1024) } });
    largeToken = await large.token('tenantA');
  });
  afterAll(() => large.close());
  const wide = (extra: Record<string, unknown> = {}) => item({ credentialPayload: { ...item().credentialPayload, credentialSubject: { name: 'Widget', note: 'w'.repeat(30_000) } }, ...extra });
  const send = (rawBody: string, key: string = crypto.randomUUID()) =>
    large.call('POST', BATCHES, { token: largeToken, rawBody, headers: { 'idempotency-key': key, 'content-type': 'application/json' } });

  it('more than MAX_BATCH_ITEMS is BATCH_TOO_LARGE with the count, even when the items past the maximum are not JSON', async () => {
    const body = JSON.stringify({ items: [wide(), wide(), wide(), wide(), wide()] });
    const brokenTail = body.replace(/"version":"0.7.0"(?![\s\S]*"version")/, '"version":0.7.0.1');
    for (const text of [body, brokenTail]) {
      const before = await batchCount(large.db);
      const res = await send(text);
      expect(res.status, res.text).toBe(400);
      expect(res.body).toMatchObject({ code: 'BATCH_TOO_LARGE', error: 'items: a batch holds at most 3 items (MAX_BATCH_ITEMS); got 5' });
      expect(await batchCount(large.db)).toBe(before);
    }
  });

  it('invalid JSON is INVALID_JSON, unstorable text names its place, an item is validated as in a small body', async () => {
    const body = JSON.stringify({ items: [wide(), wide(), wide()] });
    const invalid = await send(body.replace('},{', '}{'));
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ code: 'INVALID_JSON', error: 'Invalid JSON body' });
    const nul = await send(JSON.stringify({ items: [wide(), wide(), wide({ reference: 'a\u0000b' })] }));
    expect(nul.status).toBe(400);
    expect(nul.body.error).toBe('items[2].reference: must not contain NUL characters or invalid Unicode');
    const unnamed = await send(JSON.stringify({ items: [wide(), wide({ version: undefined }), wide()] }));
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.error).toBe('items[1].version: is required');
  });

  it('accepts a large batch and replays it in another layout (the same digest)', async () => {
    const body = { items: [wide({ reference: 'one' }), wide(), wide()] };
    const first = await send(JSON.stringify(body), 'large-replay');
    expect(first.status, first.text).toBe(202);
    const again = await send(JSON.stringify(body, null, 2), 'large-replay');
    expect(again.status).toBe(202);
    expect(again.body.batchId).toBe(first.body.batchId);
    expect((await itemRows(large.db, first.body.batchId)).map((row) => row.reference)).toEqual(['one', null, null]);
  });
});
