import type { Context } from 'hono';

/**
 * An early 413 or 415 answers before the body is read. So that the client's keep-alive connection
 * stays usable, a body of known length up to DRAIN_MAX_BYTES is read and discarded first; anything
 * larger, of unknown length or already partly read is not worth reading: the answer says
 * `Connection: close` and the server closes the connection after it.
 */
export const DRAIN_MAX_BYTES = 1_048_576;

export const settleUnreadBody = async (c: Context): Promise<void> => {
  const request = c.req.raw;
  if (!request.body) return;
  const length = Number(request.headers.get('content-length'));
  if (!request.bodyUsed && Number.isSafeInteger(length) && length <= DRAIN_MAX_BYTES) {
    try {
      await request.arrayBuffer();
      return;
    } catch {
      // the client went away or lied about the length: close
    }
  }
  c.header('connection', 'close');
};
