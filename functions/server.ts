import { ConfigError } from '../core/errors.ts';
import { readLogSettings } from '../core/logging/log-settings.ts';
import { readDatabaseUrl } from '../core/settings/database-url.ts';
import { readText } from '../core/settings/env-readers.ts';
import { readWebSettings } from '../core/settings/web-settings.ts';

/**
 * Node entry: validate settings, migrate and seed, then serve every group under one port.
 *
 * This module imports only what the settings check needs; the start-up and the app (web-serve.ts) are
 * loaded after it (loading them takes seconds under tsx), so a bad setting fails boot at once.
 */
export const startWebServer = async (env = process.env, port = Number(readText(env, 'PORT') ?? 3003)) => {
  const settings = readWebSettings(env);
  const log = readLogSettings(env);
  const databaseUrl = readDatabaseUrl(env);
  const { startUpDatabase } = await import('../core/start-up/prepare-database.ts');
  await startUpDatabase(env, databaseUrl, settings.dataEncryptionKey);
  const { serveWeb } = await import('./web-serve.ts');
  return serveWeb({ env, port, settings, log, databaseUrl });
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
