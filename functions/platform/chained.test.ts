import { Hono, type MiddlewareHandler } from 'hono';
import { describe, expect, it } from 'vitest';
import { chained } from './chained.ts';
import type { AppEnv } from './env.ts';

/** An app whose one `*` middleware runs `middleware` through `chained`, before a route answering 200. */
const appChaining = (middleware: MiddlewareHandler<AppEnv>, onRoute = () => {}) => {
  const app = new Hono<AppEnv>();
  app.use('*', (c, next) => chained(c, middleware, next)());
  app.get('/thing', (c) => {
    onRoute();
    return c.text('from the route');
  });
  return app;
};

describe('chained middleware', () => {
  it('answers with a response the middleware returns, and the route never runs', async () => {
    let routeRan = false;
    const app = appChaining(
      (c) => Promise.resolve(c.text('from the middleware', 418)),
      () => (routeRan = true),
    );
    const response = await app.request('/thing');
    expect(response.status).toBe(418);
    expect(await response.text()).toBe('from the middleware');
    expect(routeRan).toBe(false);
  });

  it("keeps the route's response when the middleware returns what next() resolved to", async () => {
    const response = await appChaining((_c, next) => next()).request('/thing');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('from the route');
  });

  it('lets a rejection of the middleware reach the error handler', async () => {
    const app = appChaining(() => Promise.reject(new Error('refused')));
    app.onError((error, c) => c.text(error.message, 401));
    const response = await app.request('/thing');
    expect(response.status).toBe(401);
    expect(await response.text()).toBe('refused');
  });
});
