import { and, count, desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { identifierLinks, identifiers, serviceInstances } from '../../db/schema/index.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import { conflict, notFound } from '../errors.ts';
import type { Logger } from '../logging/logger.ts';
import type { Fetcher } from '../net/fetcher.ts';
import { adapterFor } from './idr-instance.ts';
import { documentOf, lockDocument } from './resolver-document.ts';
import { idrFailure, patchFieldName } from './upstream-errors.ts';

export interface LinkDeps {
  db: Database;
  box: SecretBox;
  fetcher: Fetcher;
  logger: Logger;
  allowPrivateUrls: boolean;
  correlationId?: string;
}

export type LinkRecord = typeof identifierLinks.$inferSelect;

/** The tenant's identifier with its scheme, qualifiers and registrar (404 for missing or foreign). */
export const loadIdentifier = async (db: Database, tenantId: string, identifierId: string) => {
  const row = await db.query.identifiers.findFirst({
    where: and(eq(identifiers.id, identifierId), eq(identifiers.tenantId, tenantId)),
    with: { scheme: { with: { registrar: true, qualifiers: true } } },
  });
  if (!row) throw notFound('Identifier');
  return row;
};

export const listLinks = async (deps: LinkDeps, tenantId: string, identifierId: string, page: { limit: number; offset: number }) => {
  await loadIdentifier(deps.db, tenantId, identifierId);
  const where = and(eq(identifierLinks.tenantId, tenantId), eq(identifierLinks.identifierId, identifierId));
  const [rows, [counted]] = await Promise.all([
    deps.db.select().from(identifierLinks).where(where).orderBy(desc(identifierLinks.createdAt), desc(identifierLinks.id)).limit(page.limit).offset(page.offset),
    deps.db.select({ total: count() }).from(identifierLinks).where(where),
  ]);
  return { rows, total: counted?.total ?? 0 };
};

/**
 * The local record of one link of one of the tenant's identifiers (404 otherwise), the resolver
 * document it lives in, and its instance's adapter with the failure translation for that instance.
 */
export const loadLink = async (deps: LinkDeps, tenantId: string, identifierId: string, linkId: string) => {
  const identifier = await loadIdentifier(deps.db, tenantId, identifierId);
  const [record] = await deps.db
    .select()
    .from(identifierLinks)
    .where(and(eq(identifierLinks.tenantId, tenantId), eq(identifierLinks.identifierId, identifierId), eq(identifierLinks.idrLinkId, linkId)));
  if (!record) throw notFound('Link');
  const document = documentOf(identifier, record.qualifierPath);
  // A link lives on the resolver it was published to; if that instance was removed, no other resolver
  // may be asked about its id: the link is out of reach (desync), never looked up elsewhere.
  const [instance] = record.idrServiceInstanceId
    ? await deps.db.select().from(serviceInstances).where(eq(serviceInstances.id, record.idrServiceInstanceId))
    : [];
  if (!instance) return { record, document, upstream: undefined };
  const { adapter } = await adapterFor(deps, instance);
  const fail = (error: unknown) =>
    idrFailure(error, { logger: deps.logger, idrServiceInstanceId: instance.id, fieldName: patchFieldName, namespace: identifier.scheme.registrar.namespace, correlationId: deps.correlationId });
  return { record, document, upstream: { instance, adapter, fail } };
};

export const DESYNC_WARNING = 'The identity resolver no longer has this link; the local record is kept for audit';
export const desyncConflict = () => conflict('The identity resolver no longer has this link', 'IDR_LINK_DESYNC', { desync: true });

/** Live upstream data merged with the local record; `desync` and `warning` when upstream lost it. */
export const getLink = async (deps: LinkDeps, tenantId: string, identifierId: string, linkId: string) => {
  const { record, upstream } = await loadLink(deps, tenantId, identifierId, linkId);
  let live;
  try {
    live = upstream ? await upstream.adapter.getLink(record.idrLinkId) : undefined;
  } catch (error) {
    throw upstream!.fail(error);
  }
  return live ? { link: live, localRecord: record } : { link: null, localRecord: record, desync: true as const, warning: DESYNC_WARNING };
};

/**
 * Deletes locally and upstream as one step: the local delete waits uncommitted while the resolver
 * deletes (an already-absent link is fine), so a resolver failure leaves the record in place.
 */
export const deleteLink = async (deps: LinkDeps, tenantId: string, identifierId: string, linkId: string) => {
  const { record, document, upstream } = await loadLink(deps, tenantId, identifierId, linkId);
  await deps.db.transaction(async (tx) => {
    if (upstream) await lockDocument(tx, upstream.instance.id, document);
    await tx.delete(identifierLinks).where(eq(identifierLinks.id, record.id));
    try {
      await upstream?.adapter.deleteLink(record.idrLinkId);
    } catch (error) {
      throw upstream!.fail(error);
    }
  });
};
