import { sql } from 'drizzle-orm';
import { assertEncryptionKeyMatches } from '../../core/start-up/system-defaults.ts';
import { EXIT, type CliCommand } from '../command.ts';

/** Proves the settings, the database connection and DATA_ENCRYPTION_KEY work together, changing nothing. */
export const checkSettings: CliCommand = {
  name: 'check-settings',
  summary: 'Check the settings, that the database answers, and that DATA_ENCRYPTION_KEY opens its existing data',
  run: async (context) => {
    const { db, secretBox } = await context.deps();
    await db.execute(sql`select 1`);
    // Read-only: the check runs in a transaction that is always rolled back.
    await db
      .transaction(async (tx) => {
        await assertEncryptionKeyMatches(tx, secretBox);
        tx.rollback();
      })
      .catch((error: unknown) => {
        if ((error as Error)?.constructor?.name !== 'TransactionRollbackError') throw error;
      });
    context.print('Settings valid: database reachable, encryption key matches');
    return EXIT.ok;
  },
};
