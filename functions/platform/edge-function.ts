import { OpenAPIHono } from '@hono/zod-openapi';
import type { ExecutionContext, Hono } from 'hono';
import type { EnvSource } from '../../core/settings/env-readers.ts';
import { readDatabaseUrl } from '../../core/settings/database-url.ts';
import { connectDatabaseWithGraph } from '../../db/client.ts';
import type { RelationalGraph } from '../../db/relational-graphs.ts';
import type { JobQueue } from '../../core/jobs/sql-job-queue.ts';
import { createSharedServices } from './services.ts';
import type { AppEnv, Services } from './env.ts';
import { validationHook } from './validation-hook.ts';
import { applyPlatform, type MountOptions, type ServicesProvider } from './with-platform.ts';

/** Name of the Hyperdrive binding in wrangler.toml (`[[env.<group>.hyperdrive]] binding = "HYPERDRIVE"`). */
export const HYPERDRIVE_BINDING = 'HYPERDRIVE';

/**
 * Where an edge function reaches PostgreSQL: through the Hyperdrive binding when the environment has
 * one (a pool kept near the database, so a request does not pay for a fresh TCP, TLS and auth
 * handshake to it), else the direct RI_DATABASE_URL (or RI_POSTGRES_* parts).
 */
export const edgeDatabaseUrl = (env: EnvSource): string => {
  const binding = (env as Record<string, unknown>)[HYPERDRIVE_BINDING] as { connectionString?: unknown } | undefined;
  if (binding && typeof binding.connectionString === 'string' && binding.connectionString !== '') return binding.connectionString;
  return readDatabaseUrl(env);
};

/** A Workers-style module: `export default` of an entry file. */
export interface EdgeFunction {
  fetch(request: Request, env: EnvSource, ctx: ExecutionContext): Response | Promise<Response>;
}

export interface EdgeMount extends MountOptions {
  /** Where the group is served, e.g. `/api/v1/registrars`. */
  path: string;
  /** Whether every route needs a token or session (false for health and sign-in). */
  guarded: boolean;
  /**
   * The tables (with their relations) the group reads through the relational API, `db.query`; none when left
   * out. Its bundle then carries only the tables its code names (test/edge/relational-graphs.test.ts).
   */
  graph?: RelationalGraph;
  /**
   * The job queue of a group that enqueues (`sqlJobQueue`: plain SQL in the caller's transaction, no pg-boss),
   * passed by that group's entry so that other bundles do not carry it.
   */
  jobs?: () => JobQueue;
}

/**
 * One resource group as a standalone edge function with the same conventions as the Node entry.
 * Settings and caches (JWKS, principals) live as long as the isolate; the database client is made
 * per request (edge runtimes cannot share sockets between requests) and ended after the response;
 * with Hyperdrive that client connects to the pool's local endpoint, not to the database itself.
 * Migrations are not run here: the Node web or worker process owns them (`SKIP_MIGRATIONS` spirit).
 */
/** A group app: an API group (OpenAPIHono) or a page group whose variables extend the platform's (the console). */
// biome-ignore lint: a page group's own variables extend AppEnv's; Hono's generics cannot say "at least AppEnv".
type GroupApp = Hono<AppEnv> | Hono<any>;

export const edgeFunction = (group: GroupApp, mount: EdgeMount): EdgeFunction => {
  let isolate: { env: EnvSource; shared: Omit<Services, 'db'>; databaseUrl: string } | undefined;

  const perRequestServices: ServicesProvider = async (c, next) => {
    const env = c.env as EnvSource;
    if (isolate?.env !== env) {
      const jobs = mount.jobs?.();
      isolate = { env, shared: { ...createSharedServices(env), ...(jobs ? { jobs } : {}) }, databaseUrl: edgeDatabaseUrl(env) };
    }
    const connection = connectDatabaseWithGraph(isolate.databaseUrl, mount.graph ?? {}, { max: 1 });
    c.set('services', { ...isolate.shared, db: connection.db });
    try {
      await next();
    } finally {
      c.executionCtx.waitUntil(connection.close());
    }
  };

  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  applyPlatform(app, perRequestServices, mount.guarded ? mount.path : '/__unguarded__', mount);
  app.route(mount.path, group);
  return { fetch: (request, env, ctx) => app.fetch(request, env, ctx) };
};
