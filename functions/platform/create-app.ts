import { OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { Context, Handler, MiddlewareHandler } from 'hono';
import type { ZodType } from 'zod';
import type { AppEnv } from './env.ts';
import { invalidInput, validationHook } from './validation-hook.ts';

/** Each input as the library's validator reads it; the query has one value per key, an array where a key repeats. */
const INPUTS = {
  query: (c: Context) =>
    Object.fromEntries(Object.entries(c.req.queries()).map(([key, values]) => [key, values.length === 1 ? values[0] : values])),
  param: (c: Context) => c.req.param(),
};
type InputCheck = readonly [keyof typeof INPUTS, ZodType];

/**
 * A route whose only input is its path and query (every read) is registered as one handler that
 * checks both synchronously, then runs the route, with the library's rules: the same values, the same
 * 400 naming the field, the same validated data for `c.req.valid`. The library would add one
 * async middleware per target and a `safeParseAsync` each; on the hot path of every read that is three
 * handlers to compose instead of two. Path and query schemas must therefore be synchronous (zod throws
 * on an async refinement in `safeParse`); none of ours has one. Routes with a body, headers, cookies,
 * their own middleware or their own hook are registered by the library as before.
 */
const checkedInput =
  (checks: readonly InputCheck[], handler: Handler<AppEnv>): MiddlewareHandler<AppEnv> =>
  (c, next) => {
    for (const [target, schema] of checks) {
      const result = schema.safeParse(INPUTS[target](c));
      if (!result.success) invalidInput(result.error.issues, target);
      c.req.addValidatedData(target, result.data as object);
    }
    return handler(c, next);
  };

const pathAndQueryOnly = (route: RouteConfig) => {
  const request = route.request;
  return !route.middleware && !request?.body && !request?.headers && !request?.cookies;
};

/** Every resource group is one of these: zod-validated routes that document themselves. */
export const createGroupApp = () => {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const viaLibrary = app.openapi;
  const openapi = (route: RouteConfig, handler: Handler<AppEnv>, hook?: unknown) => {
    if (hook !== undefined || !pathAndQueryOnly(route)) return viaLibrary(route, handler as never, hook as never);
    const { hide, middleware: _none, ...documented } = route;
    if (!hide) app.openAPIRegistry.registerPath(documented);
    const checks: InputCheck[] = [];
    if (route.request?.query) checks.push(['query', route.request.query as ZodType]);
    if (route.request?.params) checks.push(['param', route.request.params as ZodType]);
    const honoPath = route.path.replaceAll(/\/{(.+?)}/g, '/:$1');
    app.on([route.method], [honoPath], checks.length === 0 ? handler : checkedInput(checks, handler));
    return app;
  };
  app.openapi = openapi as unknown as typeof app.openapi;
  return app;
};
