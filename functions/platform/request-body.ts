import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { bodyLimit } from 'hono/body-limit';
import { MAX_CREDENTIAL_PAYLOAD_BYTES } from '../../core/credentials/payload-limit.ts';
import { batchTooLarge } from '../../core/batches/batch-limits.ts';
import { ApiError, badRequest } from '../../core/errors.ts';
import type { AppEnv } from './env.ts';
import { parseJsonInSteps } from './json-in-steps.ts';
import { rejectUnstorableJson } from './unstorable-text.ts';

const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\b/i;
const limiters = new Map<number, ReturnType<typeof createMiddleware<AppEnv>>>();

/**
 * Whether the request has a body to read, without building one: under the Node adapter every request
 * but a GET or HEAD has one (its incoming message), and the adapter's `raw.body` would build a whole
 * Request and a body stream just to say so; elsewhere the Request says.
 */
const hasBody = (c: Context<AppEnv>): boolean =>
  (c.env as { incoming?: unknown } | undefined)?.incoming !== undefined ? c.req.method !== 'GET' && c.req.method !== 'HEAD' : c.req.raw.body !== null;

const tooLarge = (maxSize: number) => new ApiError(413, `Request body exceeds ${maxSize} bytes`, 'REQUEST_BODY_TOO_LARGE');

/**
 * Hono's body limit, with its Content-Length check made here from the headers (the same rule: a
 * declared length over the limit is refused, any other passes) so that a body with a Content-Length
 * is not turned into a stream first; a body without one is counted as it is read, by Hono's.
 */
const limiterFor = (maxSize: number) => {
  let limiter = limiters.get(maxSize);
  if (!limiter) {
    const counted = bodyLimit({
      maxSize,
      onError: () => {
        throw tooLarge(maxSize);
      },
    });
    limiter = createMiddleware<AppEnv>(async (c, next) => {
      if (!hasBody(c)) return next();
      const declared = c.req.header('content-length');
      if (declared === undefined || c.req.header('transfer-encoding') !== undefined) return counted(c, next);
      if (Number.parseInt(declared || '0', 10) > maxSize) throw tooLarge(maxSize);
      return next();
    });
    limiters.set(maxSize, limiter);
  }
  return limiter;
};

/** A batch submission carries many requests: its own, larger limit (MAX_BATCH_REQUEST_BODY_BYTES). */
const BATCH_SUBMISSION = /\/credentials\/batches\/?$/;
/** A single issuance carries one credential payload: its raw body is bounded by the payload maximum before it is parsed. */
const ISSUANCE = /^\/api\/v1\/credentials\/?$/;

/**
 * The raw body limit of `POST /credentials`: twice the payload maximum (room for the request's other
 * members and for indented JSON), so a body that cannot hold an issuable payload is refused from its
 * Content-Length or its first bytes, before it is read whole and parsed on the request thread.
 */
export const ISSUANCE_REQUEST_MAX_BYTES = 2 * MAX_CREDENTIAL_PAYLOAD_BYTES;

const limitOf = (method: string, path: string, settings: { maxRequestBodyBytes: number; batches: { maxRequestBodyBytes: number } }) => {
  if (method !== 'POST') return settings.maxRequestBodyBytes;
  if (BATCH_SUBMISSION.test(path)) return settings.batches.maxRequestBodyBytes;
  if (ISSUANCE.test(path)) return Math.min(settings.maxRequestBodyBytes, ISSUANCE_REQUEST_MAX_BYTES);
  return settings.maxRequestBodyBytes;
};

/** A body of at most this many declared bytes is read and decoded in one go (under the Node adapter, straight from its socket). */
const READ_WHOLE_MAX_BYTES = 256 * 1024;

/**
 * The body as text (decoded as `Request.text()` decodes, BOM included); a larger body, or one of
 * unknown length, decoded chunk by chunk as it arrives, so it is never decoded in one synchronous go.
 * Later `c.req.text()` calls get it too.
 */
const readText = async (c: Context<AppEnv>): Promise<string> => {
  const declared = Number(c.req.header('content-length'));
  let text: string;
  if (declared <= READ_WHOLE_MAX_BYTES) text = await c.req.raw.text();
  else {
    const reader = c.req.raw.body!.getReader();
    const decoder = new TextDecoder();
    const parts: string[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(decoder.decode(value, { stream: true }));
    }
    parts.push(decoder.decode());
    text = parts.join('');
  }
  const read = Promise.resolve(text);
  Object.defineProperty(c.req, 'text', { value: () => read, configurable: true });
  return text;
};

/**
 * The body parsed once, in bounded steps (json-in-steps.ts), and handed to every later `c.req.json()`
 * of the request (Hono's own re-parses the text at each call: the validator's, the handler's). A batch
 * submission's `items` past MAX_BATCH_ITEMS are counted, not parsed: 400 BATCH_TOO_LARGE.
 */
const parseOnce = async (c: Context<AppEnv>, settings: { batches: { maxItems: number } }): Promise<void> => {
  const text = await readText(c);
  const arrayLimit =
    c.req.method === 'POST' && BATCH_SUBMISSION.test(c.req.path)
      ? { key: 'items', max: settings.batches.maxItems, refuse: (count: number) => batchTooLarge(settings.batches.maxItems, count) }
      : undefined;
  const parsed = Promise.resolve(await parseJsonInSteps(text, { arrayLimit }));
  Object.defineProperty(c.req, 'json', { value: () => parsed, configurable: true });
};

/** The methods whose requests may carry a body: only these pass through `requestBody`. */
export const BODY_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * MAX_REQUEST_BODY_BYTES (413) for every operation with a body (a batch submission: its own limit; an issuance: at most
 * ISSUANCE_REQUEST_MAX_BYTES), then one JSON parse in bounded steps (`parseOnce`) so an
 * unparseable body is a 400 `Invalid JSON body` before any validator runs, then storable text in it.
 * Mounted for BODY_METHODS only.
 */
export const requestBody = createMiddleware<AppEnv>(async (c, next) => {
  const { settings } = c.get('services');
  const limit = limitOf(c.req.method, c.req.path, settings);
  return limiterFor(limit)(c, async () => {
    const type = c.req.header('content-type') ?? '';
    if (JSON_TYPE.test(type) && hasBody(c)) {
      try {
        await parseOnce(c, settings);
      } catch (error) {
        if (error instanceof ApiError) throw error;
        throw badRequest('Invalid JSON body', 'INVALID_JSON');
      }
      await rejectUnstorableJson(c);
    }
    await next();
  });
});
