import { readDataEncryptionKey } from '../settings/encryption-key.ts';
import { readDatabaseUrl } from '../settings/database-url.ts';
import { startUpDatabase } from './prepare-database.ts';

/** `npm run db:migrate`: the same start-up preparation the web process and worker run. */
try {
  await startUpDatabase({ ...process.env, SKIP_MIGRATIONS: 'false' }, readDatabaseUrl(process.env), readDataEncryptionKey(process.env));
  console.log('Database migrated and system defaults seeded');
} catch (error) {
  console.error(`Migration failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
