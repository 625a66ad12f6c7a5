import type { Context } from 'hono';

const ACCEPTED = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Takes a well-formed inbound x-correlation-id, else makes one; every response echoes it. It is set
 * once, before the handler: every response is made through the context (`c.json`, `c.html`, the error
 * and not-found handlers), which carries it. Setting a header after the response exists would make
 * Hono rebuild the response as a stream and lose the adapter's fast write path.
 */
export const assignCorrelationId = (c: Context): void => {
  const inbound = c.req.header('x-correlation-id');
  const id = inbound && ACCEPTED.test(inbound) ? inbound : crypto.randomUUID();
  c.set('correlationId', id);
  c.header('x-correlation-id', id);
};
