import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../functions/app.ts';
import type { Services } from '../../functions/platform/env.ts';
import { SWAGGER_UI_ASSETS_PATH } from '../../core/service-kit/api-docs-page.ts';
import { writeApiDocsStatic } from '../../scripts/api-docs-static.ts';

const APP_URL = 'https://credentials.example.com';
/** Git-ignored (test/artifacts/), removed afterwards. */
const OUT = join(import.meta.dirname, '..', 'artifacts', 'api-docs-static', crypto.randomUUID());

/** What the Node web process serves, in process. */
const nodeApp = buildApp((c, next) => {
  c.set('services', { settings: { appUrl: APP_URL } } as Services);
  return next();
});

/** The `_headers` file as path → headers (Cloudflare's format: a path line, then indented `Name: value` lines). */
const readHeaderRules = async () => {
  const rules: Record<string, Record<string, string>> = {};
  let current: Record<string, string> = {};
  for (const line of (await readFile(join(OUT, '_headers'), 'utf8')).split('\n').filter(Boolean)) {
    if (!line.startsWith(' ')) rules[line] = current = {};
    else {
      const at = line.indexOf(':');
      current[line.slice(0, at).trim()] = line.slice(at + 1).trim();
    }
  }
  return rules;
};

const PATHS = ['/api-docs', '/api-docs/start.js', '/api-docs/page.css', '/api-docs/openapi.json', `${SWAGGER_UI_ASSETS_PATH}/swagger-ui-bundle.js`, `${SWAGGER_UI_ASSETS_PATH}/swagger-ui.css`];

let written: string[];
let mf: Miniflare;
beforeAll(async () => {
  written = await writeApiDocsStatic(OUT, APP_URL);
  const rules = await readHeaderRules();
  mf = new Miniflare({
    modules: true,
    script: 'export default { fetch: () => new Response("not an asset", { status: 404 }) }',
    compatibilityDate: '2026-07-01',
    assets: {
      directory: OUT,
      routerConfig: { has_user_worker: true },
      assetConfig: { html_handling: 'auto-trailing-slash', headers: { version: 2, rules: Object.fromEntries(Object.entries(rules).map(([path, set]) => [path, { set }])) } },
    },
  });
});
afterAll(async () => {
  await mf?.dispose();
  await rm(OUT, { recursive: true, force: true });
});

describe('/api-docs as static assets (edge deployments)', () => {
  it('holds exactly the files the Node process serves, byte for byte, with the same headers', async () => {
    expect(written.sort()).toEqual(['_headers', 'api-docs.html', ...PATHS.slice(1).map((p) => p.slice(1))].sort());
    const rules = await readHeaderRules();
    for (const path of PATHS) {
      const served = await nodeApp.request(path);
      expect(served.status, path).toBe(200);
      const file = path === '/api-docs' ? 'api-docs.html' : path.slice(1);
      expect(Buffer.from(await readFile(join(OUT, file))).equals(Buffer.from(await served.arrayBuffer())), path).toBe(true);
      const rule = rules[path] ?? rules[`${SWAGGER_UI_ASSETS_PATH}/*`];
      expect(rule, path).toBeDefined();
      // The document: served by the Node process without the page's headers; statically, with them (no harm).
      if (path.endsWith('.json')) continue;
      for (const name of ['content-security-policy', 'x-content-type-options', 'referrer-policy', 'x-frame-options', 'cache-control']) {
        expect(Object.entries(rule!).find(([n]) => n.toLowerCase() === name)?.[1], `${path} ${name}`).toBe(served.headers.get(name));
      }
    }
    expect(JSON.parse(await readFile(join(OUT, 'api-docs/openapi.json'), 'utf8')).servers).toEqual([expect.objectContaining({ url: APP_URL })]);
  });

  it('are served by workerd’s asset server at the same paths, with the policy', async () => {
    for (const path of PATHS) {
      const response = await mf.dispatchFetch(`${APP_URL}${path}`, { redirect: 'manual' });
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-security-policy'), path).toContain("script-src 'self'");
      await response.arrayBuffer();
    }
    const page = await mf.dispatchFetch(`${APP_URL}/api-docs`);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain(`${SWAGGER_UI_ASSETS_PATH}/swagger-ui-bundle.js`);
  });
});
