import type { Result } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';
import { describe, expect, it } from 'vitest';
import { API_PREFIX, buildApp } from '../app.ts';
import { PartitionedRouter } from './partitioned-router.ts';

/**
 * The composed app's router must match every path exactly as Hono's own router of the whole app does
 * (the TrieRouter, as the RegExpRouter refuses these routes): the same handlers, in the same order,
 * with the same parameters.
 */
const app = buildApp(async (_c, next) => {
  await next();
});
type Handler = (typeof app.routes)[number]['handler'];

const loaded = <R extends { add(method: string, path: string, handler: Handler): void }>(router: R) => {
  for (const route of app.routes) router.add(route.method, route.path, route.handler);
  return router;
};

/** Each match as route indexes with decoded parameters, whichever result form the router answers. */
const readable = ([matches, stash]: Result<Handler>) =>
  matches.map(([handler, params]) => ({
    route: app.routes.findIndex((route) => route.handler === handler),
    params: stash
      ? Object.fromEntries(Object.entries(params).map(([name, index]) => [name, stash[index as number]]))
      : params,
  }));

/** A request path for each route (its parameters and wildcards filled in), and paths beside them. */
const paths = [
  ...new Set(
    app.routes.flatMap(({ path }) => {
      const filled = path.replace(/:[^/]+/g, 'some-id').replace(/\*$/, 'rest/of/it');
      return [filled, `${filled}/`, `${filled}/extra`, filled.replace(/some-id/g, 'verify')];
    }),
  ),
  '/',
  '/api',
  '/api/v1',
  '/api/v1/',
  '/api/v1x',
  '/api/v1/unknown-group/x',
  '/nowhere',
];

describe('PartitionedRouter', () => {
  it('matches every path of the app as one Hono router of all routes does', () => {
    const reference = loaded(new SmartRouter<Handler>({ routers: [new RegExpRouter(), new TrieRouter()] }));
    const partitioned = loaded(new PartitionedRouter<Handler>(API_PREFIX));
    expect(paths.length).toBeGreaterThan(150);
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      for (const path of paths) {
        expect(readable(partitioned.match(method, path)), `${method} ${path}`).toEqual(readable(reference.match(method, path)));
      }
    }
  });

  it('gives the parts it can a RegExpRouter, and the others a TrieRouter', () => {
    const partitioned = loaded(new PartitionedRouter<Handler>(API_PREFIX));
    partitioned.match('GET', '/api/v1/registrars/x');
    partitioned.match('GET', '/api/v1/credentials/x');
    expect(partitioned.activeRouterOf('/api/v1/registrars/x')).toBe('RegExpRouter');
    expect(partitioned.activeRouterOf('/api/v1/credentials/x')).toBe('TrieRouter');
  });

  it('refuses a route once it has matched', () => {
    const partitioned = loaded(new PartitionedRouter<Handler>(API_PREFIX));
    partitioned.match('GET', '/');
    expect(() => partitioned.add('GET', '/late', app.routes[0]!.handler)).toThrow(/already built/);
  });
});
