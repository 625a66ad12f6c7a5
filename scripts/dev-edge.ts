import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Miniflare } from 'miniflare';
import { startWorker } from '../consumers/worker.ts';
import { createLogger, parseLogLevel } from '../core/logging/logger.ts';
import { startWebServer } from '../functions/server.ts';
import { freePort } from '../test/rig/postgres-server.ts';
import { bundleEdgeEntry, edgeEntries } from './edge-bundle.ts';
import { bindingOf, wranglerRoutes } from './edge-routes.ts';
import { startLocalServices, stopOnSignals } from './local-stack.ts';

/**
 * `npm run dev:edge`: the stack of `npm start` with the web API under workerd. Every group with an edge entry
 * (functions/<group>/edge.ts, found at start) is bundled as it deploys and runs as a worker in one local workerd
 * (miniflare) behind a gateway worker on the web port: the gateway sends each request to a group's worker by that
 * environment's routes in wrangler.toml, through a service binding. A path no edge group serves goes to a Node web
 * process on a loopback port of its own, which also runs the start-up (migrations, seeding) the edge leaves to Node.
 */

/** The settings an edge worker gets as bindings: the web API's own (README "Settings"), nothing else of the shell. */
const SETTING = /^(RI_|AUTH_OIDC_|DATA_ENCRYPTION_KEY$|TENANT_|SESSION_|API_|MAX_|CREDENTIAL_|VERIFY_|FETCH_|SYSTEM_|LOG_|IDEMPOTENCY_|CACHE_|SCHEMA_|UNTP_|DEPLOYMENT_ENVIRONMENT$|LIBRARY_|BATCH_|WORKER_)/;
const edgeBindings = (env: NodeJS.ProcessEnv): Record<string, string> =>
  Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => SETTING.test(e[0]) && typeof e[1] === 'string'));

/** Resource groups: every folder of functions/ but the shared platform; whether each has an edge entry. */
const resourceGroups = (functionsDir = 'functions') =>
  readdirSync(functionsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== 'platform')
    .map((d) => ({ group: d.name, edge: existsSync(join(functionsDir, d.name, 'edge.ts')) }));

const wrangler = readFileSync('wrangler.toml', 'utf8');
const compatibilityDate = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(wrangler)![1]!;
const compatibilityFlags = [.../^compatibility_flags\s*=\s*\[([^\]]*)\]/m.exec(wrangler)![1]!.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);

const services = await startLocalServices(process.env);
const nodePort = process.env.DEV_EDGE_NODE_PORT ? Number(process.env.DEV_EDGE_NODE_PORT) : await freePort();
const web = await startWebServer({ ...services.env, HOST: '127.0.0.1' }, nodePort);
const worker = await startWorker(services.env, createLogger(parseLogLevel(process.env.LOG_LEVEL)));

// The API's groups as wrangler deploys them; the storage and VC services keep their Node processes here (local
// disk, and hosts of their own: their catch-all routes are not the API's).
const groups = resourceGroups();
const allRoutes = wranglerRoutes(wrangler);
const routedGroups = new Set(allRoutes.map((r) => r.group));
const apiEntries = edgeEntries().filter((e) => e.entry.startsWith('functions/'));
const entries = apiEntries.filter((e) => routedGroups.has(e.group));
// An entry whose wrangler environment has no route is never reached: another group's route serves its paths
// (credential-status: credential-records), or else Node does; it says so.
for (const e of apiEntries.filter((e) => !routedGroups.has(e.group))) console.warn(`dev:edge: ${e.entry} has no routes in wrangler.toml [env.${e.group}]: its paths go to another group's route, or to Node`);
const outDir = resolve(process.env.LOCAL_DATA_DIR ?? '.data', 'edge-dev');
await mkdir(outDir, { recursive: true });
const bundle = (name: string) => join(outDir, `${name}.js`);
await Promise.all([...entries.map((e) => bundleEdgeEntry(e.entry, bundle(e.group), e.platform)), bundleEdgeEntry('scripts/edge-gateway.ts', bundle('gateway'))]);
const onEdge = new Set(entries.map((e) => e.group));
const routes = allRoutes.filter((r) => onEdge.has(r.group));

const common = { modules: true, modulesRoot: outDir, compatibilityDate, compatibilityFlags };
const mf = new Miniflare({
  host: '127.0.0.1',
  port: services.webPort,
  workers: [
    {
      ...common,
      name: 'gateway',
      scriptPath: bundle('gateway'),
      bindings: { ROUTES: JSON.stringify(routes), NODE_ORIGIN: `http://127.0.0.1:${nodePort}` },
      serviceBindings: Object.fromEntries(entries.map((e) => [bindingOf(e.group), e.group])),
    },
    ...entries.map((e) => ({ ...common, name: e.group, scriptPath: bundle(e.group), bindings: edgeBindings(services.env) })),
  ],
});
await mf.ready;

const edgeGroups = groups.filter((g) => onEdge.has(g.group)).map((g) => g.group);
const nodeGroups = groups.filter((g) => !onEdge.has(g.group)).map((g) => g.group);
console.log(
  services.banner('local development, API under workerd', [
    `Gateway        ${services.appUrl} (workerd: routes of wrangler.toml; other paths to Node)`,
    `workerd        ${edgeGroups.join(', ') || '(none)'}`,
    `Node web       ${nodeGroups.join(', ') || '(none)'}${nodeGroups.length > 0 ? '' : ' (every group runs on workerd)'}`,
    `               on http://127.0.0.1:${nodePort}, also /api-docs and the start-up (migrations, seeding)`,
  ]),
);

stopOnSignals(services, [() => mf.dispose(), () => web.close(), () => worker.stop()]);
