import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { createLogger, parseLogLevel, serviceNameOf } from '../core/logging/logger.ts';
import { migrateVcSchema } from './db/migrate.ts';
import { auditSealedKeys, rotateSealedKeys } from './key-rotation.ts';
import { createKeyVault } from './key-vault.ts';
import { VC_SERVICE_NAME } from './server.ts';
import { readVcSettings } from './settings.ts';

const USAGE = `Usage: npm run vc:rotate-key-encryption-key -- [--batch-size=N] [--audit]
With the VC service's settings, KEY_ENCRYPTION_KEY the new key and KEY_ENCRYPTION_KEY_PREVIOUS the old one:
re-seals every private key under the new key (N per transaction, default 100), progress on stderr, audit lines
at warn; resumable. --audit only counts the private keys per sealing key id (a digest, never a key).
Exit codes: 0 done, 1 failed (or a key opened with neither key), 2 wrong usage.`;

/** The VC service's operator command for KEY_ENCRYPTION_KEY (the product's CLI may not import this service). */
const main = async (argv: string[], env: NodeJS.ProcessEnv): Promise<number> => {
  let values: { 'batch-size'?: string; audit?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({ args: argv, options: { 'batch-size': { type: 'string' }, audit: { type: 'boolean' }, help: { type: 'boolean' } } }));
  } catch (error) {
    process.stderr.write(`vc-rotate: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const batchText = values['batch-size'] ?? '100';
  if (!/^\d+$/.test(batchText) || Number(batchText) < 1 || Number(batchText) > 10_000) {
    process.stderr.write(`vc-rotate: --batch-size: must be an integer from 1 to 10000, got "${batchText}"\n`);
    return 2;
  }
  const settings = readVcSettings(env);
  const logger = createLogger(parseLogLevel(env.LOG_LEVEL), (line) => process.stderr.write(`${line}\n`), { base: { 'service.name': serviceNameOf(env, VC_SERVICE_NAME) } });
  const vault = createKeyVault(settings.keyEncryptionKey, settings.previousKeyEncryptionKey);
  const sql = postgres(settings.databaseUrl, { max: 2, onnotice: () => {} });
  const audit = (phase: string, fields: Record<string, unknown>) =>
    logger.warn('Operator rotate-key-encryption-key', { audit: true, operator: env.SUDO_USER ?? userInfo().username, phase, ...fields });
  try {
    await migrateVcSchema(sql);
    const keyIds = await vault.keyIds();
    if (values.audit) {
      audit('audit', { currentKeyId: keyIds.current });
      for (const row of await auditSealedKeys(sql, vault)) process.stdout.write(`vc_service.keys key=${row.keyId} role=${row.role} count=${row.count}\n`);
      return 0;
    }
    const ids = { fromKeyId: keyIds.previous ?? null, toKeyId: keyIds.current };
    audit('started', ids);
    const outcome = await rotateSealedKeys(sql, vault, {
      batchSize: Number(batchText),
      onBatch: (progress) => process.stderr.write(`vc_service.keys: ${progress.resealed} re-sealed\n`),
    });
    process.stdout.write(`vc_service.keys resealed=${outcome.resealed} unopenable=${outcome.unopenable}\n`);
    audit('finished', { ...ids, ...outcome });
    return outcome.unopenable > 0 ? 1 : 0;
  } finally {
    await sql.end({ timeout: 5 });
  }
};

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2), process.env).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`vc-rotate: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
