import { serve } from '@hono/node-server';
import { ConfigError } from '../core/errors.ts';
import { readDatabaseUrl } from '../core/settings/database-url.ts';
import { readText } from '../core/settings/env-readers.ts';
import { readWebSettings } from '../core/settings/web-settings.ts';
import { connectDatabase } from '../db/client.ts';
import { createJobQueue } from '../core/jobs/job-queue.ts';
import { readLogSettings } from '../core/logging/log-settings.ts';
import { createLogger } from '../core/logging/logger.ts';
import { createGuardedFetch } from '../core/net/guarded-fetch.ts';
import { registerSystemNamespaces } from '../core/identifier-links/system-namespaces.ts';
import { seedSystemTemplates } from '../core/render-templates/system-templates.ts';
import { ensureDefaultDidAtStartUp } from '../core/dids/default-did.ts';
import { startUpDatabase } from '../core/start-up/prepare-database.ts';
import { refusedSystemServices, refusedSystemServicesWarning } from '../core/start-up/private-system-services.ts';
import { readSystemServices } from '../core/settings/system-services.ts';
import { buildApp } from './app.ts';
import { createNodeJwtVerifier } from './platform/auth/node-jwt-verifier.ts';
import { createServices } from './platform/services.ts';
import { staticServices } from './platform/with-platform.ts';

/** Node entry: validate settings, migrate and seed, then serve every group under one port. */
export const startWebServer = async (env = process.env, port = Number(readText(env, 'PORT') ?? 3003)) => {
  const settings = readWebSettings(env);
  const log = readLogSettings(env);
  const databaseUrl = readDatabaseUrl(env);
  await startUpDatabase(env, databaseUrl, settings.dataEncryptionKey);
  const database = connectDatabase(databaseUrl);
  const logger = createLogger(log.level, undefined, { redact: log.redact });
  // Creates the queues it sends to on first use: a submission never depends on a worker having run.
  const jobs = createJobQueue(databaseUrl, logger);
  const services = createServices(env, database.db, settings, {
    createFetcher: createGuardedFetch,
    verifyJwt: createNodeJwtVerifier(),
    logger,
    jobs,
  });
  const { fetcher } = services;
  const app = buildApp(staticServices(services));
  const server = serve({ fetch: app.fetch, port, hostname: readText(env, 'HOST') ?? '0.0.0.0' });
  services.logger.info('Web API listening', { port, url: settings.appUrl });
  const refused = refusedSystemServices(readSystemServices(env), settings.allowPrivateUrls);
  if (refused.length > 0) services.logger.warn(refusedSystemServicesWarning(refused), { setting: 'FETCH_ALLOW_PRIVATE_URLS', services: refused });
  // System render templates need the storage service, which may start after us: best-effort, in the background.
  void seedSystemTemplates({ db: database.db, box: services.secretBox, fetcher, logger: services.logger, allowPrivateUrls: settings.allowPrivateUrls })
    .then((created) => created > 0 && services.logger.info('System render templates stored', { created }))
    .catch((error) => services.logger.warn('System render templates not seeded', { error: String(error) }));
  // The system tenant's namespaces, registered with their resolvers (tenants register their own).
  void registerSystemNamespaces({ db: database.db, box: services.secretBox, fetcher, logger: services.logger })
    .then(({ registered }) => registered.length > 0 && services.logger.info('System namespaces registered', { namespaces: registered }))
    .catch((error) => services.logger.warn('System namespaces not registered', { error: String(error) }));
  // The system DEFAULT DID on the system VC service (which may start after us): warns and retries next start.
  void ensureDefaultDidAtStartUp({ db: database.db, box: services.secretBox, fetcher, logger: services.logger }, env);
  return {
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await jobs.close();
      await database.close();
    },
  };
};

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const web = await startWebServer();
    const stop = async () => {
      await web.close();
      process.exit(0);
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  } catch (error) {
    const code = error instanceof ConfigError ? ` [${error.code}]` : '';
    console.error(`Web boot failed: ${error instanceof Error ? error.message : String(error)}${code}`);
    process.exit(1);
  }
}
