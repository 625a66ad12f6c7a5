import { asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { identifierSchemes, registrars, schemeQualifiers } from '../../db/schema/index.ts';
import { SYSTEM_TENANT_ID } from '../../db/system-tenant.ts';
import type { SchemeRegistration } from '../adapters/idr/idr-adapter.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Logger } from '../logging/logger.ts';
import type { Fetcher } from '../net/fetcher.ts';
import { adapterFor, resolveIdrInstance } from './idr-instance.ts';
import { registerNamespaceIfAbsent } from './register-namespace.ts';

type ApplicationIdentifier = SchemeRegistration['applicationIdentifiers'][number];

interface SchemeShape {
  name: string;
  primaryKey: string;
  validationPattern: string;
  qualifiers: { key: string; description: string; validationPattern: string }[];
}

/**
 * A namespace as the resolver registers it: each scheme is a primary identifier (`I`, keyed by its
 * primaryKey, listing its qualifier keys) and each qualifier key a qualifier (`Q`), so the resolver
 * accepts links for the scheme's values and qualifier paths. A qualifier key shared by two schemes
 * is registered once, with the first scheme's pattern.
 */
export const namespaceRegistration = (namespace: string, schemes: SchemeShape[]): SchemeRegistration => {
  const primaries: ApplicationIdentifier[] = schemes.map((scheme) => ({
    title: scheme.name,
    label: scheme.name,
    shortcode: scheme.primaryKey,
    ai: scheme.primaryKey,
    type: 'I',
    regex: scheme.validationPattern,
    qualifiers: scheme.qualifiers.map((q) => q.key),
  }));
  const qualifiers = new Map<string, ApplicationIdentifier>();
  for (const q of schemes.flatMap((scheme) => scheme.qualifiers)) {
    if (!qualifiers.has(q.key) && !primaries.some((p) => p.ai === q.key)) {
      qualifiers.set(q.key, { title: q.description, label: q.description, shortcode: q.key, ai: q.key, type: 'Q', regex: q.validationPattern });
    }
  }
  return { namespace, applicationIdentifiers: [...primaries, ...qualifiers.values()] };
};

export interface NamespaceDeps {
  db: Database;
  box: SecretBox;
  fetcher: Fetcher;
  logger: Logger;
}

/**
 * Registers the system tenant's registrar namespaces with the identity resolvers their schemes
 * publish to (scheme instance, else registrar instance, else the system default), as the spec has it:
 * tenants register their own namespaces; the system's are registered automatically. Run by the web
 * process after start-up. A namespace the resolver already holds differently (an operator's, on a
 * shared resolver) is never overwritten: it is logged with its differences and kept. A resolver that
 * refuses or cannot be reached is logged and tried again at the next start. Returns what was
 * registered (or already was, identically), what failed and what was kept as the resolver has it.
 */
export const registerSystemNamespaces = async (deps: NamespaceDeps) => {
  const rows = await deps.db.query.registrars.findMany({
    where: eq(registrars.tenantId, SYSTEM_TENANT_ID),
    // A tenant's scheme under a system registrar is the tenant's to register.
    with: {
      schemes: {
        where: eq(identifierSchemes.tenantId, SYSTEM_TENANT_ID),
        with: { qualifiers: { orderBy: asc(schemeQualifiers.order) } },
      },
    },
  });
  type Instance = Awaited<ReturnType<typeof resolveIdrInstance>>;
  // Schemes mostly share a chain (none set, or their registrar's): each chain is resolved once.
  const resolved = new Map<string, Instance>();
  const instanceOf = async (chain: (string | null)[]) => {
    const key = chain.join(' ');
    if (!resolved.has(key)) resolved.set(key, await resolveIdrInstance(deps, SYSTEM_TENANT_ID, chain));
    return resolved.get(key)!;
  };
  const groups = new Map<string, { instance: Instance; namespace: string; schemes: SchemeShape[] }>();
  for (const registrar of rows) {
    for (const scheme of registrar.schemes) {
      const instance = await instanceOf([scheme.idrServiceInstanceId, registrar.idrServiceInstanceId]);
      const key = `${instance.id} ${registrar.namespace}`;
      const group = groups.get(key) ?? { instance, namespace: registrar.namespace, schemes: [] };
      group.schemes.push(scheme);
      groups.set(key, group);
    }
  }
  const registered: string[] = [];
  const failed: string[] = [];
  const kept: string[] = [];
  for (const { instance, namespace, schemes } of groups.values()) {
    try {
      const { adapter } = await adapterFor(deps, instance);
      const result = await registerNamespaceIfAbsent(adapter, namespaceRegistration(namespace, schemes));
      if (result.outcome === 'kept') {
        kept.push(namespace);
        deps.logger.warn('System namespace left as the identity resolver holds it: its registration differs from ours', {
          namespace,
          idrServiceInstanceId: instance.id,
          differences: result.differences,
        });
      } else registered.push(namespace);
    } catch (error) {
      failed.push(namespace);
      deps.logger.warn('System namespace not registered with its identity resolver', {
        namespace,
        idrServiceInstanceId: instance.id,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return { registered, failed, kept };
};
