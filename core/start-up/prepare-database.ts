import { sql } from 'drizzle-orm';
import { SecretBox } from '../crypto/secret-box.ts';
import { readPreviousDataEncryptionKey } from '../settings/encryption-key.ts';
import { readText, type EnvSource } from '../settings/env-readers.ts';
import { readSystemServices, type SystemServiceDefinition } from '../settings/system-services.ts';
import { connectDatabase } from '../../db/client.ts';
import { applyMigrations } from '../../db/migrate.ts';
import { applySystemSeed } from './seed/apply-system-seed.ts';
import { applySchemeDocuments, loadSchemeDocument } from '../conformity/scheme-document.ts';
import { DEFAULT_USER_AGENT, readUserAgent } from '../net/fetcher.ts';
import { createGuardedFetch } from '../net/guarded-fetch.ts';
import { readAllowPrivateUrls } from '../settings/fetch-settings.ts';
import { SYSTEM_TENANT_ID } from '../../db/system-tenant.ts';
import { readSystemSeedFile, seedFileError } from './seed/system-seed-file.ts';
import { assertEncryptionKeyMatches, seedSystemDefaults } from './system-defaults.ts';

/** Serialises start-up work when the web process and the worker boot together. */
const STARTUP_LOCK = 728_190_331;

export interface PrepareOptions {
  databaseUrl: string;
  dataEncryptionKey: string;
  /** DATA_ENCRYPTION_KEY_PREVIOUS during a rotation: the check value may still be sealed under it. */
  previousDataEncryptionKey?: string;
  systemServices: SystemServiceDefinition[];
  /** SYSTEM_SEED_FILE: system registrars, schemes and qualifiers to upsert (unset: none). */
  seedFile?: string;
  /** FETCH_ALLOW_PRIVATE_URLS, for conformity scheme documents named by URL in the seed file. */
  allowPrivateUrls?: boolean;
  userAgent?: string;
}

/**
 * With SKIP_MIGRATIONS the schema is someone else's job, but the key must still open existing data:
 * boot fails on a mismatch just the same.
 */
export const checkEncryptionKey = async (databaseUrl: string, dataEncryptionKey: string, previousDataEncryptionKey?: string): Promise<void> => {
  const { db, close } = connectDatabase(databaseUrl, { max: 1 });
  try {
    await assertEncryptionKeyMatches(db, new SecretBox(dataEncryptionKey, previousDataEncryptionKey));
  } finally {
    await close();
  }
};

/** Start-up for every process (Node only): apply migrations, check the key, seed system defaults. */
export const prepareDatabase = async (options: PrepareOptions): Promise<void> => {
  const { seedFile } = options;
  // A bad seed file fails boot before the database is touched.
  const seed = seedFile === undefined ? undefined : await readSystemSeedFile(seedFile);
  const fetcher = createGuardedFetch({ allowPrivate: options.allowPrivateUrls ?? false, userAgent: options.userAgent ?? DEFAULT_USER_AGENT });
  const conformitySchemes: Awaited<ReturnType<typeof loadSchemeDocument>>[] = [];
  for (const source of seed?.conformitySchemes ?? []) {
    try {
      conformitySchemes.push(await loadSchemeDocument(source, fetcher));
    } catch (error) {
      throw seedFileError(seedFile!, `conformitySchemes: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const { db, close } = connectDatabase(options.databaseUrl, { max: 1 });
  try {
    await db.execute(sql`select pg_advisory_lock(${STARTUP_LOCK})`);
    await applyMigrations(db);
    const box = new SecretBox(options.dataEncryptionKey, options.previousDataEncryptionKey);
    await db.transaction(async (tx) => {
      await assertEncryptionKeyMatches(tx, box);
      await seedSystemDefaults(tx, box, options.systemServices);
      if (seed) await applySystemSeed(tx, seed, (problem) => seedFileError(seedFile!, problem));
      await applySchemeDocuments(tx, SYSTEM_TENANT_ID, conformitySchemes);
    });
  } finally {
    await db.execute(sql`select pg_advisory_unlock(${STARTUP_LOCK})`).catch(() => {});
    await close();
  }
};

/**
 * What every Node process (web, worker, `db:migrate`) does with the database before it starts:
 * migrate and seed, or with SKIP_MIGRATIONS=true only prove the key opens existing data.
 */
export const startUpDatabase = async (env: EnvSource, databaseUrl: string, dataEncryptionKey: string): Promise<void> => {
  const previousDataEncryptionKey = readPreviousDataEncryptionKey(env, dataEncryptionKey);
  if (env.SKIP_MIGRATIONS === 'true') return checkEncryptionKey(databaseUrl, dataEncryptionKey, previousDataEncryptionKey);
  await prepareDatabase({
    databaseUrl,
    dataEncryptionKey,
    previousDataEncryptionKey,
    systemServices: readSystemServices(env),
    seedFile: readText(env, 'SYSTEM_SEED_FILE'),
    allowPrivateUrls: readAllowPrivateUrls(env, () => {}),
    userAgent: readUserAgent(env.RI_HTTP_USER_AGENT),
  });
};
