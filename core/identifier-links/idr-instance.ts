import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { serviceInstances } from '../../db/schema/index.ts';
import { createIdrAdapter, type IdrAdapter, type IdrConfig } from '../adapters/idr/idr-adapter.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Fetcher } from '../net/fetcher.ts';
import { serviceInstanceNotFound } from '../service-instances/visible-instance.ts';
import { visibleTo } from '../tenancy/visibility.ts';

type InstanceDeps = { db: Database; box: SecretBox; fetcher: Fetcher };

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
  const config = (await deps.box.decryptJson(instance.configEncrypted)) as IdrConfig;
  return { adapter: createIdrAdapter(config, deps.fetcher), config };
};


/**
 * Whether an IDR instance's configuration reaches a resolver that takes its key (see IdrAdapter.probe):
 * meant for when an instance is created or its config changes. Resolves to the problem, or undefined.
 */
export const probeIdrInstance = async (deps: InstanceDeps, instance: typeof serviceInstances.$inferSelect): Promise<string | undefined> => {
  try {
    await (await adapterFor(deps, instance)).adapter.probe();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
};
