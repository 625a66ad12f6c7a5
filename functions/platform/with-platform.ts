import type { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { authenticate } from './auth/authenticate.ts';
import { correlationId } from './correlation-id.ts';
import type { AppEnv, Services } from './env.ts';
import { handleError, handleNotFound } from './error-handler.ts';
import { rejectRepeatedQuery } from './repeated-query.ts';
import { requestBody } from './request-body.ts';
import { rejectUnstorableText } from './unstorable-text.ts';

/** Hands each request its services: one shared set on Node, a per-request set on edge runtimes. */
export type ServicesProvider = MiddlewareHandler<AppEnv>;

export const staticServices = (services: Services): ServicesProvider => async (c, next) => {
  c.set('services', services);
  await next();
};

export interface MountOptions {
  /** Paths under the mount that need no session or token. */
  publicPaths?: (path: string) => boolean;
}

/**
 * The conventions every group shares, in one order: correlation id, services, body limit and JSON
 * parse, single-valued query, storable text (no NUL, no lone surrogates), authentication (unless public), one error body for everything.
 */
export const applyPlatform = (
  app: OpenAPIHono<AppEnv>,
  provideServices: ServicesProvider,
  guardedPrefix: string,
  options: MountOptions = {},
) => {
  app.use('*', correlationId, provideServices, requestBody, rejectRepeatedQuery, rejectUnstorableText);
  app.use(`${guardedPrefix}/*`, async (c, next) => {
    if (options.publicPaths?.(c.req.path)) return next();
    return authenticate(c, next);
  });
  app.onError(handleError);
  app.notFound(handleNotFound);
  return app;
};
