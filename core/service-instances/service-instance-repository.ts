import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import { serviceInstances, type AdapterType, type ServiceType } from '../../db/schema/index.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import { isUniqueViolation } from '../db-errors.ts';
import { probeIdrInstance } from '../identifier-links/idr-instance.ts';
import type { Logger } from '../logging/logger.ts';
import type { Fetcher } from '../net/fetcher.ts';
import { badRequest, conflict } from '../errors.ts';
import { assertWritable, visibleTo } from '../tenancy/visibility.ts';
import { assertAdapterMatches, validateConfig, type AdapterConfig } from './adapter-configs.ts';
import { instanceColumnsFor } from './effective-primary.ts';
import { mergeConfig } from './masking.ts';
import { hasPendingStatusOperations } from './pending-status.ts';
import { clearReferences, countReferences } from './references.ts';

export type ServiceInstanceRow = typeof serviceInstances.$inferSelect;
export type ServiceInstance = Omit<ServiceInstanceRow, 'configEncrypted'> & { config: AdapterConfig };

export interface ServiceInstanceInput {
  serviceType: ServiceType;
  adapterType: AdapterType;
  name: string;
  description?: string;
  config: Record<string, unknown>;
  isPrimary?: boolean;
}
export interface ServiceInstancePatch {
  name?: string;
  description?: string | null;
  config?: Record<string, unknown>;
  isPrimary?: boolean;
}

interface Deps {
  db: Database;
  box: SecretBox;
  fetcher: Fetcher;
  allowPrivateUrls: boolean;
  logger?: Logger;
  correlationId?: string;
}

/** An IDR instance's new config must reach a resolver; a refusal rolls the write back (see probeIdrInstance). */
const probeIfIdr = async (deps: Deps, row: ServiceInstanceRow) => {
  if (row.serviceType === 'IDR') await probeIdrInstance(deps, row);
};

const open = async (box: SecretBox, row: ServiceInstanceRow): Promise<ServiceInstance> => {
  const { configEncrypted, ...rest } = row;
  return { ...rest, config: (await box.decryptJson(configEncrypted)) as AdapterConfig };
};

/**
 * One primary per service type per tenant: writers of a tenant's primary take a transaction-scoped
 * lock on (tenant, type) and demote the previous primary before setting theirs; the partial unique
 * index is the last line of defence.
 */
const demotePrimary = async (tx: Queryable, tenantId: string, serviceType: ServiceType, exceptId?: string) => {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`service-primary:${tenantId}:${serviceType}`}))`);
  await tx
    .update(serviceInstances)
    .set({ isPrimary: false, updatedAt: new Date() })
    .where(
      and(
        eq(serviceInstances.tenantId, tenantId),
        eq(serviceInstances.serviceType, serviceType),
        eq(serviceInstances.isPrimary, true),
        exceptId ? sql`${serviceInstances.id} <> ${exceptId}` : undefined,
      ),
    );
};

const primaryRace = (error: unknown) =>
  isUniqueViolation(error) ? conflict('isPrimary: another primary instance was set at the same time; retry', 'PRIMARY_CONFLICT') : error;

export const createServiceInstance = async (deps: Deps, tenantId: string, input: ServiceInstanceInput): Promise<ServiceInstance> => {
  assertAdapterMatches(input.serviceType, input.adapterType);
  const config = validateConfig(input.adapterType, input.config, deps.allowPrivateUrls);
  const configEncrypted = await deps.box.encryptJson(config);
  try {
    const row = await deps.db.transaction(async (tx) => {
      if (input.isPrimary) await demotePrimary(tx, tenantId, input.serviceType);
      const [inserted] = await tx
        .insert(serviceInstances)
        .values({
          tenantId,
          serviceType: input.serviceType,
          adapterType: input.adapterType,
          name: input.name,
          description: input.description ?? null,
          configEncrypted,
          isPrimary: input.isPrimary ?? false,
        })
        .returning();
      await probeIfIdr(deps, inserted!);
      return inserted!;
    });
    return open(deps.box, row);
  } catch (error) {
    throw primaryRace(error);
  }
};

export const listServiceInstances = async (
  deps: Deps,
  tenantId: string,
  filter: { serviceType?: ServiceType; adapterType?: AdapterType },
  page: { limit: number; offset: number },
) => {
  const where = and(
    visibleTo(serviceInstances.tenantId, tenantId),
    filter.serviceType ? eq(serviceInstances.serviceType, filter.serviceType) : undefined,
    filter.adapterType ? eq(serviceInstances.adapterType, filter.adapterType) : undefined,
  );
  const [rows, [counted]] = await Promise.all([
    deps.db
      .select(instanceColumnsFor(tenantId))
      .from(serviceInstances)
      .where(where)
      .orderBy(desc(serviceInstances.createdAt), desc(serviceInstances.id))
      .limit(page.limit)
      .offset(page.offset),
    deps.db.select({ total: count() }).from(serviceInstances).where(where),
  ]);
  return { rows: await Promise.all(rows.map((row) => open(deps.box, row))), total: counted?.total ?? 0 };
};

const findVisibleRow = async (db: Queryable, tenantId: string, id: string) => {
  const [row] = await db
    .select()
    .from(serviceInstances)
    .where(and(eq(serviceInstances.id, id), visibleTo(serviceInstances.tenantId, tenantId)));
  return row;
};

/** One visible instance as the tenant sees it (a system default overshadowed by an own primary is not primary). */
export const findServiceInstance = async (deps: Deps, tenantId: string, id: string) => {
  const [row] = await deps.db
    .select(instanceColumnsFor(tenantId))
    .from(serviceInstances)
    .where(and(eq(serviceInstances.id, id), visibleTo(serviceInstances.tenantId, tenantId)));
  return row ? open(deps.box, row) : undefined;
};

const sameConfig = (a: AdapterConfig, b: AdapterConfig) => {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));
};

/**
 * PATCH: system defaults are read-only (403); config is shallow-merged over the stored one, then
 * validated and encrypted; a changed effective config while status operations are pending is a 409.
 */
export const updateServiceInstance = async (deps: Deps, tenantId: string, id: string, patch: ServiceInstancePatch) => {
  try {
    const row = await deps.db.transaction(async (tx) => {
      const current = assertWritable(await findVisibleRow(tx, tenantId, id), tenantId, 'Service instance');
      const changes: Partial<ServiceInstanceRow> = { updatedAt: new Date() };
      if (patch.name !== undefined) changes.name = patch.name;
      if (patch.description !== undefined) changes.description = patch.description;
      if (patch.config !== undefined) {
        const stored = (await deps.box.decryptJson(current.configEncrypted)) as AdapterConfig;
        const merged = validateConfig(current.adapterType, mergeConfig(stored, patch.config), deps.allowPrivateUrls);
        if (!sameConfig(stored, merged)) {
          if (await hasPendingStatusOperations(tx, id)) {
            throw conflict('config cannot change while credential status operations are pending', 'SERVICE_INSTANCE_STATUS_PENDING');
          }
          changes.configEncrypted = await deps.box.encryptJson(merged);
        }
      }
      if (patch.isPrimary !== undefined) {
        if (patch.isPrimary) await demotePrimary(tx, tenantId, current.serviceType, id);
        changes.isPrimary = patch.isPrimary;
      }
      const [updated] = await tx
        .update(serviceInstances)
        .set(changes)
        .where(and(eq(serviceInstances.id, id), eq(serviceInstances.tenantId, tenantId)))
        .returning();
      if (changes.configEncrypted) await probeIfIdr(deps, updated!);
      return updated!;
    });
    return open(deps.box, row);
  } catch (error) {
    throw primaryRace(error);
  }
};

/**
 * DELETE: a system default is a 403 before anything else; pending status operations block (force
 * does not bypass); the caller's own referencing DIDs, registrars and schemes block with their
 * counts unless `force`, which clears those references first.
 */
export const deleteServiceInstance = async (deps: Deps, tenantId: string, id: string, force: boolean): Promise<void> => {
  await deps.db.transaction(async (tx) => {
    assertWritable(await findVisibleRow(tx, tenantId, id), tenantId, 'Service instance');
    await tx.execute(sql`select 1 from ${serviceInstances} where ${serviceInstances.id} = ${id} for update`);
    if (await hasPendingStatusOperations(tx, id)) {
      throw conflict('The instance has credentials with pending status operations', 'SERVICE_INSTANCE_STATUS_PENDING');
    }
    const references = await countReferences(tx, tenantId, id);
    const total = references.dids + references.registrars + references.schemes;
    if (total > 0 && !force) {
      throw conflict(
        `Service instance is referenced by ${references.dids} DIDs, ${references.registrars} registrars and ${references.schemes} schemes; delete with force=true to clear them`,
        'SERVICE_INSTANCE_IN_USE',
        { references },
      );
    }
    if (total > 0) await clearReferences(tx, tenantId, id);
    await tx.delete(serviceInstances).where(and(eq(serviceInstances.id, id), eq(serviceInstances.tenantId, tenantId)));
  });
};

export const parseForce = (raw: string | undefined): boolean => {
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  throw badRequest('force: must be true or false');
};
