import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { dids } from '../../db/schema/index.ts';
import { SYSTEM_TENANT_ID } from '../../db/system-tenant.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Logger } from '../logging/logger.ts';
import type { Fetcher } from '../net/fetcher.ts';
import { readText, type EnvSource } from '../settings/env-readers.ts';
import { didWebHost, stripManagedAlias } from './did-web.ts';
import { systemVcInstance, vcAdapterFor } from './vc-instance.ts';

/** SYSTEM_DEFAULT_DID_ALIAS: the DEFAULT DID's short name under the system VC host (default `default`). */
export const readDefaultDidAlias = (env: EnvSource): string => {
  const alias = stripManagedAlias(readText(env, 'SYSTEM_DEFAULT_DID_ALIAS') ?? 'default');
  if (!alias) throw new Error('SYSTEM_DEFAULT_DID_ALIAS must contain letters, digits or hyphens');
  return alias;
};

export interface DefaultDidDeps {
  db: Database;
  box: SecretBox;
  fetcher: Fetcher;
  logger: Logger;
}

/**
 * The system DEFAULT DID on the system VC instance: created there when missing, recorded once as
 * system-owned and ACTIVE. Repeats are harmless (the upstream DID is looked up before it is
 * created; the record is replaced only when the alias or host changed). Returns the DID.
 */
export const ensureDefaultDid = async (deps: DefaultDidDeps, alias: string): Promise<string> => {
  const instance = await systemVcInstance(deps.db);
  if (!instance) throw new Error('The system VC service instance is missing');
  const { adapter, config } = await vcAdapterFor(deps, instance);
  const upstreamAlias = `${didWebHost(config.baseUrl)}:${alias}`;
  const did = `did:web:${upstreamAlias}`;
  const [existing] = await deps.db
    .select()
    .from(dids)
    .where(and(eq(dids.tenantId, SYSTEM_TENANT_ID), eq(dids.type, 'DEFAULT')));
  if (existing?.did === did && (await adapter.getDid(did))) return did;
  const held = (await adapter.getDid(did)) ?? (await adapter.createDid(upstreamAlias));
  const record = {
    did: held.did,
    alias,
    keyId: held.controllerKeyId ?? held.keys[0]?.kid ?? null,
    status: 'ACTIVE' as const,
    serviceInstanceId: instance.id,
  };
  await deps.db.transaction(async (tx) => {
    if (existing) await tx.update(dids).set({ ...record, updatedAt: new Date() }).where(eq(dids.id, existing.id));
    else
      await tx
        .insert(dids)
        .values({ ...record, tenantId: SYSTEM_TENANT_ID, type: 'DEFAULT', method: 'DID_WEB', name: 'System default DID' })
        .onConflictDoNothing();
  });
  return held.did;
};

/** Start-up hook (web process): the VC service may not be up yet, so failure warns and the next start retries. */
export const ensureDefaultDidAtStartUp = async (deps: DefaultDidDeps, env: EnvSource): Promise<void> => {
  try {
    const did = await ensureDefaultDid(deps, readDefaultDidAlias(env));
    deps.logger.info('System default DID ready', { did });
  } catch (error) {
    deps.logger.warn('System default DID not ensured; retried at the next start', {
      error: error instanceof Error ? error.message : String(error),
    });
  }
};
