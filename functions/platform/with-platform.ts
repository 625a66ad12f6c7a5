import type { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { authenticate } from './auth/authenticate.ts';
import { chained } from './chained.ts';
import { assignCorrelationId } from './correlation-id.ts';
import type { AppEnv, Services } from './env.ts';
import { handleError, handleNotFound } from './error-handler.ts';
import { rejectRepeatedQuery } from './repeated-query.ts';
import { BODY_METHODS, requestBody } from './request-body.ts';
import { rejectUnstorableUrl } from './unstorable-text.ts';

/** Hands each request its services: one shared set on Node, a per-request set on edge runtimes. */
export type ServicesProvider = MiddlewareHandler<AppEnv>;

/** One shared set: handed over without a frame of its own around the rest of the request. */
export const staticServices = (services: Services): ServicesProvider => (c, next) => {
  c.set('services', services);
  return next();
};

export interface MountOptions {
  /** Paths under the mount that need no session or token. */
  publicPaths?: (path: string) => boolean;
}

const BODY_METHOD_SET = new Set(BODY_METHODS);

/**
 * The conventions every group shares, in one order: correlation id, single-valued query and storable
 * URL text (no NUL, no lone surrogates), services, then for requests that may carry a body its limit,
 * JSON parse and storable text, then authentication (unless public) under `guardedPrefix`, one error
 * body for everything. All of it is one middleware: on a GET it is the hot path of every read (see the
 * registrar bench), and each further layer costs every request a router entry and a dispatch; none of
 * it touches the body of a GET.
 */
export const applyPlatform = (
  app: OpenAPIHono<AppEnv>,
  provideServices: ServicesProvider,
  guardedPrefix: string,
  options: MountOptions = {},
) => {
  const below = `${guardedPrefix}/`;
  const isGuarded = (path: string) => (path === guardedPrefix || path.startsWith(below)) && !options.publicPaths?.(path);
  const platform: MiddlewareHandler<AppEnv> = (c, next) => {
    assignCorrelationId(c);
    rejectRepeatedQuery(c);
    rejectUnstorableUrl(c);
    const guard = isGuarded(c.req.path) ? chained(c, authenticate, next) : next;
    return provideServices(c, BODY_METHOD_SET.has(c.req.method) ? chained(c, requestBody, guard) : guard);
  };
  app.use('*', platform);
  app.onError(handleError);
  app.notFound(handleNotFound);
  return app;
};
