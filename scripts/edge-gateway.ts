import { bindingOf, pickGroup, SERVED_BY_HEADER, type GatewayRoute } from './edge-routes.ts';

interface Fetcher {
  fetch(request: Request): Promise<Response>;
}

interface GatewayEnv {
  /** JSON of GatewayRoute[]: the wrangler routes of the groups running in this workerd. */
  ROUTES: string;
  /** Where every other path goes: the Node web process that serves all groups. */
  NODE_ORIGIN: string;
  [binding: string]: unknown;
}

let parsed: { source: string; routes: GatewayRoute[] } | undefined;

/**
 * The one origin of `npm run dev:edge` (a worker in the same workerd as the groups): a request goes to the
 * group worker whose wrangler route matches it, through a service binding, as Cloudflare's routes would send
 * it in production; a path no edge group serves goes to the Node web process, unchanged but for its origin.
 */
export default {
  async fetch(request: Request, env: GatewayEnv): Promise<Response> {
    if (parsed?.source !== env.ROUTES) parsed = { source: env.ROUTES, routes: JSON.parse(env.ROUTES) as GatewayRoute[] };
    const url = new URL(request.url);
    const group = pickGroup(url.pathname, parsed.routes);
    const response = group
      ? await (env[bindingOf(group)] as Fetcher).fetch(request)
      : await fetch(new Request(new URL(`${url.pathname}${url.search}`, env.NODE_ORIGIN), request), { redirect: 'manual' });
    // Which runtime answered, for the startup table's claims to be checked (test/edge/dev-edge.test.ts).
    const answered = new Response(response.body, response);
    answered.headers.set(SERVED_BY_HEADER, group ? `workerd ${group}` : 'node');
    return answered;
  },
};
