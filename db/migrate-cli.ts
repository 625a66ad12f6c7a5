import { readDataEncryptionKey } from '../core/settings/encryption-key.ts';
import { readDatabaseUrl } from '../core/settings/database-url.ts';
import { readSystemServices } from '../core/settings/system-services.ts';
import { prepareDatabase } from './migrate.ts';

/** `npm run db:migrate`: the same start-up preparation the web process and worker run. */
try {
  await prepareDatabase({
    databaseUrl: readDatabaseUrl(process.env),
    dataEncryptionKey: readDataEncryptionKey(process.env),
    systemServices: readSystemServices(process.env),
  });
  console.log('Database migrated and system defaults seeded');
} catch (error) {
  console.error(`Migration failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
