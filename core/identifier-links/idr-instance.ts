import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { serviceInstances } from '../../db/schema/index.ts';
import { AdapterError } from '../adapters/adapter-errors.ts';
import { tenantSafeReason } from '../adapters/adapter-failure.ts';
import { createIdrAdapter, type IdrAdapter, type IdrConfig } from '../adapters/idr/idr-adapter.ts';
import { isIdrReason } from '../adapters/idr/idr-errors.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import { ApiError, badRequest } from '../errors.ts';
import type { Fetcher } from '../net/fetcher.ts';
import type { Logger } from '../logging/logger.ts';
import { serviceInstanceNotFound } from '../service-instances/visible-instance.ts';
import { visibleTo } from '../tenancy/visibility.ts';

type InstanceDeps = { db: Database; box: SecretBox; fetcher: Fetcher; /** Sent with every call (`x-correlation-id`). */ correlationId?: string };

/**
 * The IDR instance for an identifier: the scheme's, else the registrar's, else the tenant's primary
 * IDR instance, else the system default — the first set wins.
 */
export const resolveIdrInstance = async (deps: Pick<InstanceDeps, 'db'>, tenantId: string, chain: (string | null)[]) => {
  for (const id of chain) {
    if (!id) continue;
    const [row] = await deps.db
      .select()
      .from(serviceInstances)
      .where(and(eq(serviceInstances.id, id), visibleTo(serviceInstances.tenantId, tenantId)));
    if (row) return row;
  }
  const [primary] = await deps.db
    .select()
    .from(serviceInstances)
    .where(and(eq(serviceInstances.serviceType, 'IDR'), eq(serviceInstances.isPrimary, true), visibleTo(serviceInstances.tenantId, tenantId)))
    .orderBy(desc(eq(serviceInstances.tenantId, tenantId)));
  if (!primary) throw serviceInstanceNotFound('idrServiceInstanceId');
  return primary;
};

export const adapterFor = async (deps: InstanceDeps, instance: typeof serviceInstances.$inferSelect): Promise<{ adapter: IdrAdapter; config: IdrConfig }> => {
  const config = (await deps.box.openConfig(instance.configEncrypted)) as IdrConfig;
  return { adapter: createIdrAdapter(config, deps.fetcher, { correlationId: deps.correlationId }), config };
};


/**
 * An IDR instance's configuration must reach a resolver that takes its key (IdrAdapter.probe: its
 * `/.well-known/resolver` and link routes answer as the resolver does). Called when an instance is
 * created or its config changes. A resolver that does not answer at all (network error, timeout,
 * 5xx) is a 502 IDR_UNAVAILABLE: the config may be right and the resolver briefly down. Anything
 * that answers, but not as the resolver (a wrong base URL or path prefix), is a 400 naming
 * `config.baseUrl`; a refused key is a 400 naming `config.apiKey`.
 */
export const probeIdrInstance = async (
  deps: InstanceDeps & { logger?: Logger; correlationId?: string },
  instance: typeof serviceInstances.$inferSelect,
): Promise<void> => {
  try {
    await (await adapterFor(deps, instance)).adapter.probe();
  } catch (error) {
    throw probeFailure(error, deps);
  }
};

const probeFailure = (error: unknown, deps: { logger?: Logger; correlationId?: string }): unknown => {
  if (!(error instanceof AdapterError)) return error;
  const reason = tenantSafeReason(error.message);
  if (error.kind === 'unavailable' && (error.status === undefined || error.status >= 500)) {
    // A 502 names the service and nothing of how it failed; the detail is for the operator's log.
    deps.logger?.warn('Identity resolver probe failed', { correlationId: deps.correlationId, status: error.status, detail: error.message });
    return new ApiError(502, 'config.baseUrl: the identity resolver did not answer', 'IDR_UNAVAILABLE');
  }
  if (isIdrReason(error, 'auth')) return badRequest(`config.apiKey: the identity resolver refused the key (${reason})`);
  return badRequest(`config.baseUrl: does not answer as an identity resolver (${reason})`);
};
