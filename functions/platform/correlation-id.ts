import type { Context } from 'hono';

const ACCEPTED = /^[A-Za-z0-9_-]{1,128}$/;

/** A request's correlation id: its well-formed inbound x-correlation-id, else a new one. */
export const correlationIdFor = (inbound: string | undefined): string => (inbound && ACCEPTED.test(inbound) ? inbound : crypto.randomUUID());

/** The bindings of a runtime that chose the correlation id and writes the response header itself (node-fetch.ts). */
export interface CorrelatedBindings {
  correlationId?: string;
}

/**
 * Takes the request's correlation id; every response echoes it. Where the runtime has chosen it and
 * writes the header itself (the Node server), it is only taken. Elsewhere (the edge) it is chosen here
 * and set once, before the handler: every response is made through the context (`c.json`, `c.html`, the
 * error and not-found handlers), which carries it. Setting a header after the response exists would make
 * Hono rebuild the response as a stream and lose the adapter's fast write path.
 */
export const assignCorrelationId = (c: Context): void => {
  const given = (c.env as CorrelatedBindings | undefined)?.correlationId;
  if (given !== undefined) {
    c.set('correlationId', given);
    return;
  }
  const id = correlationIdFor(c.req.header('x-correlation-id'));
  c.set('correlationId', id);
  c.header('x-correlation-id', id);
};
