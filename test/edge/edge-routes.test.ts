import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { edgeEntries } from '../../scripts/edge-bundle.ts';
import { pickGroup, wranglerRoutes } from '../../scripts/edge-routes.ts';

/** The routing of `npm run dev:edge`'s gateway: wrangler.toml's routes, the most specific one winning. */
describe('edge routes (the dev:edge gateway)', () => {
  const toml = `
name = "x"
[env.credentials]
name = "css-credentials"
routes = [{ pattern = "credentials.example.com/api/v1/credentials*", zone_name = "example.com" }]
[env.credentials.vars]
RI_APP_URL = "https://credentials.example.com"
[env.batches]
routes = [
  { pattern = "credentials.example.com/api/v1/credentials/batches*", zone_name = "example.com" },
  { pattern = "credentials.example.com/api/v1/batch-status", zone_name = "example.com" },
]
[[env.batches.hyperdrive]]
binding = "HYPERDRIVE"
`;

  it('reads every route of every environment, without its host, and nothing from sub-tables', () => {
    expect(wranglerRoutes(toml)).toEqual([
      { group: 'credentials', pattern: '/api/v1/credentials*' },
      { group: 'batches', pattern: '/api/v1/credentials/batches*' },
      { group: 'batches', pattern: '/api/v1/batch-status' },
    ]);
  });

  it('picks the most specific matching route; a pattern without * matches only itself; no match is undefined', () => {
    const routes = wranglerRoutes(toml);
    expect(pickGroup('/api/v1/credentials/batches/b1', routes)).toBe('batches');
    expect(pickGroup('/api/v1/credentials/c1', routes)).toBe('credentials');
    expect(pickGroup('/api/v1/credentials', routes)).toBe('credentials');
    expect(pickGroup('/api/v1/batch-status', routes)).toBe('batches');
    expect(pickGroup('/api/v1/batch-status/x', routes)).toBeUndefined();
    expect(pickGroup('/verify', routes)).toBeUndefined();
  });

  it("finds at least one route for every edge entry in the project's wrangler.toml (or one of another entry that serves its paths)", () => {
    const routes = wranglerRoutes(readFileSync('wrangler.toml', 'utf8'));
    // credential-status and identifier-links have no zone route of their own (their paths sit inside another group's
    // prefix): credential-records and identifiers carry their routes.
    const servedByAnother: Record<string, { path: string; group: string }> = {
      'credential-status': { path: '/api/v1/credentials/c1/status/revocation', group: 'credential-records' },
      'identifier-links': { path: '/api/v1/identifiers/i1/links/l1', group: 'identifiers' },
    };
    for (const { group } of edgeEntries()) {
      const other = servedByAnother[group];
      if (other) expect(pickGroup(other.path, routes), group).toBe(other.group);
      else expect(routes.some((r) => r.group === group), group).toBe(true);
    }
    expect(pickGroup('/api/v1/credentials/c1', routes)).toBe('credential-records');
    expect(pickGroup('/api/v1/registrars/r1', routes)).toBe('registrars');
    // The console's issue pages have their own entry; the rest of the console stays with the console entry.
    expect(pickGroup('/console/issue/preview', routes)).toBe('console-issue');
    expect(pickGroup('/console/products', routes)).toBe('console');
  });
});
