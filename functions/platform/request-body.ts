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
const limiters = new Map<number, ReturnType<typeof bodyLimit>>();

const limiterFor = (maxSize: number) => {
  let limiter = limiters.get(maxSize);
  if (!limiter) {
    limiter = bodyLimit({
      maxSize,
      onError: () => {
        throw new ApiError(413, `Request body exceeds ${maxSize} bytes`, 'REQUEST_BODY_TOO_LARGE');
      },
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

/**
 * The body as text, decoded chunk by chunk as it arrives (as `Request.text()` decodes, BOM included),
 * so a large body is never decoded in one synchronous go; later `c.req.text()` calls get it too.
 */
const readText = async (c: Context<AppEnv>): Promise<string> => {
  const reader = c.req.raw.body!.getReader();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(decoder.decode(value, { stream: true }));
  }
  parts.push(decoder.decode());
  const text = parts.join('');
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
 * Mounted for BODY_METHODS only: on a GET, reading `c.req.raw.body` would make the Node adapter build a full Request.
 */
export const requestBody = createMiddleware<AppEnv>(async (c, next) => {
  const { settings } = c.get('services');
  const limit = limitOf(c.req.method, c.req.path, settings);
  return limiterFor(limit)(c, async () => {
    const type = c.req.header('content-type') ?? '';
    if (c.req.raw.body && JSON_TYPE.test(type)) {
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
