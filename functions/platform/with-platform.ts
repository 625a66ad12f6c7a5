import type { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { authenticate } from './auth/authenticate.ts';
import { assignCorrelationId } from './correlation-id.ts';
import type { AppEnv, Services } from './env.ts';
import { handleError, handleNotFound } from './error-handler.ts';
import { rejectRepeatedQuery } from './repeated-query.ts';
import { BODY_METHODS, requestBody } from './request-body.ts';
import { rejectUnstorableUrl } from './unstorable-text.ts';

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

/** The checks every request's URL gets, after its correlation id (so that a refusal carries it). */
const requestConventions = createMiddleware<AppEnv>(async (c, next) => {
  assignCorrelationId(c);
  rejectRepeatedQuery(c);
  rejectUnstorableUrl(c);
  await next();
});

/**
 * The conventions every group shares, in one order: correlation id, single-valued query and storable
 * URL text (no NUL, no lone surrogates), services, then for requests that may carry a body its limit,
 * JSON parse and storable text, then authentication (unless public), one error body for everything.
 * The per-request work stays in few layers, and none of it touches the body of a GET: this is the hot
 * path of every read (see the registrar bench).
 */
export const applyPlatform = (
  app: OpenAPIHono<AppEnv>,
  provideServices: ServicesProvider,
  guardedPrefix: string,
  options: MountOptions = {},
) => {
  app.use('*', requestConventions, provideServices);
  app.on(BODY_METHODS, '*', requestBody);
  app.use(`${guardedPrefix}/*`, (c, next) => (options.publicPaths?.(c.req.path) ? next() : authenticate(c, next)));
  app.onError(handleError);
  app.notFound(handleNotFound);
  return app;
};
