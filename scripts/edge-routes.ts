/**
 * The paths each wrangler environment serves, read from wrangler.toml's `routes` (the same routes that decide
 * in production which worker answers a request), and the choice among them the way Cloudflare makes it: a
 * pattern ending in `*` matches every path it starts, any other only itself, and the most specific (longest)
 * matching pattern wins. It imports nothing, so the local gateway worker (scripts/edge-gateway.ts) runs it in workerd.
 */

export interface GatewayRoute {
  /** The wrangler environment (the group) that serves the route. */
  group: string;
  /** The path part of the route pattern, e.g. `/api/v1/registrars*`. */
  pattern: string;
}

/** Every `routes` pattern of every `[env.<name>]` section, host left out. */
export const wranglerRoutes = (toml: string): GatewayRoute[] => {
  const routes: GatewayRoute[] = [];
  const sections = toml.split(/^(?=\[env\.[a-z0-9-]+\]\s*$)/m).slice(1);
  for (const section of sections) {
    const group = /^\[env\.([a-z0-9-]+)\]/.exec(section)![1]!;
    // The section's own keys end at its first sub-table ([env.<name>.vars], [[env.<name>.hyperdrive]]).
    const body = section.split(/^\[/m)[1]!;
    for (const match of body.matchAll(/pattern\s*=\s*"([^"]+)"/g)) {
      const pattern = match[1]!;
      const slash = pattern.indexOf('/');
      routes.push({ group, pattern: slash < 0 ? '/*' : pattern.slice(slash) });
    }
  }
  return routes;
};

const matches = (pattern: string, path: string) => (pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : path === pattern);

/** The group whose most specific route matches `path`, or undefined (no edge worker serves it). */
export const pickGroup = (path: string, routes: readonly GatewayRoute[]): string | undefined => {
  let best: GatewayRoute | undefined;
  for (const route of routes) {
    if (!matches(route.pattern, path)) continue;
    if (!best || route.pattern.replace(/\*$/, '').length > best.pattern.replace(/\*$/, '').length) best = route;
  }
  return best?.group;
};

/** The name of the service binding through which the gateway reaches a group's worker. */
export const bindingOf = (group: string) => `GROUP_${group.replace(/-/g, '_').toUpperCase()}`;

/** Local development only (scripts/edge-gateway.ts): which runtime answered, `workerd <group>` or `node`. */
export const SERVED_BY_HEADER = 'x-dev-edge-served-by';
