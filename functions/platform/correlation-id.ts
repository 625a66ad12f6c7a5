import { createMiddleware } from 'hono/factory';
import type { AppEnv } from './env.ts';

const ACCEPTED = /^[A-Za-z0-9_-]{1,128}$/;

/** Takes a well-formed inbound x-correlation-id, else makes one; echoes it on every response. */
export const correlationId = createMiddleware<AppEnv>(async (c, next) => {
  const inbound = c.req.header('x-correlation-id');
  const id = inbound && ACCEPTED.test(inbound) ? inbound : crypto.randomUUID();
  c.set('correlationId', id);
  c.header('x-correlation-id', id);
  await next();
  c.header('x-correlation-id', id);
});
