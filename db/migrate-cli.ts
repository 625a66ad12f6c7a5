import { readDataEncryptionKey } from '../core/settings/encryption-key.ts';
import { readDatabaseUrl } from '../core/settings/database-url.ts';
import { startUpDatabase } from './migrate.ts';

/** `npm run db:migrate`: the same start-up preparation the web process and worker run. */
try {
  await startUpDatabase({ ...process.env, SKIP_MIGRATIONS: 'false' }, readDatabaseUrl(process.env), readDataEncryptionKey(process.env));
  console.log('Database migrated and system defaults seeded');
} catch (error) {
  console.error(`Migration failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
