import { and, count, desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { identifierLinks, identifiers, serviceInstances } from '../../db/schema/index.ts';
import { AdapterError } from '../adapters/adapter-errors.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import { ApiError, conflict, notFound } from '../errors.ts';
import { assertPublicUrl } from '../net/public-url.ts';
import type { Fetcher } from '../net/fetcher.ts';
import { adapterFor, resolveIdrInstance } from './idr-instance.ts';
import { publishedFields, toIdrChanges, toIdrLink, type LinkInput, type PublishedLink } from './link-fields.ts';

export interface LinkDeps {
  db: Database;
  box: SecretBox;
  fetcher: Fetcher;
  allowPrivateUrls: boolean;
}

export type LinkRecord = typeof identifierLinks.$inferSelect;

/** Upstream failures as the API reports them; nothing is recorded locally in either case. */
const upstreamFailure = (error: unknown): unknown => {
  if (!(error instanceof AdapterError)) return error;
  return error.kind === 'rejected'
    ? new ApiError(422, `The identity resolver refused the link: ${error.message}`, 'IDR_REJECTED')
    : new ApiError(502, `The identity resolver is unavailable: ${error.message}`, 'IDR_UNAVAILABLE');
};

/** The tenant's identifier with its scheme and registrar (404 for missing or foreign). */
const loadIdentifier = async (db: Database, tenantId: string, identifierId: string) => {
  const row = await db.query.identifiers.findFirst({
    where: and(eq(identifiers.id, identifierId), eq(identifiers.tenantId, tenantId)),
    with: { scheme: { with: { registrar: true } } },
  });
  if (!row) throw notFound('Identifier');
  return row;
};

const assertHrefs = (links: Partial<LinkInput>[], allowPrivate: boolean, prefix: (i: number) => string) =>
  links.forEach((link, i) => {
    if (link.href !== undefined) assertPublicUrl(`${prefix(i)}href`, link.href, allowPrivate);
  });

const canonical = <T extends Partial<LinkInput>>(link: T): T => (link.href ? { ...link, href: new URL(link.href).href } : link);

/** Publishes links for one of the tenant's identifiers, then records each one locally. */
export const publishLinks = async (
  deps: LinkDeps,
  tenantId: string,
  identifierId: string,
  input: { links: LinkInput[]; qualifierPath?: string; description?: string },
): Promise<LinkRecord[]> => {
  const identifier = await loadIdentifier(deps.db, tenantId, identifierId);
  assertHrefs(input.links, deps.allowPrivateUrls, (i) => `links[${i}].`);
  const links = input.links.map(canonical).map((l) => publishedFields(l) as PublishedLink);
  const { scheme } = identifier;
  const instance = await resolveIdrInstance(deps, tenantId, [scheme.idrServiceInstanceId, scheme.registrar.idrServiceInstanceId]);
  const { adapter, config } = await adapterFor(deps, instance);
  const qualifierPath = input.qualifierPath ?? '/';
  let published;
  try {
    published = await adapter.publishLinks({
      namespace: scheme.registrar.namespace,
      identificationKeyType: scheme.primaryKey,
      identificationKey: identifier.value,
      qualifierPath,
      description: input.description ?? `${scheme.name} ${identifier.value}`,
      links: links.map((l) => toIdrLink(l, config)),
    });
  } catch (error) {
    throw upstreamFailure(error);
  }
  return deps.db
    .insert(identifierLinks)
    .values(
      published.map((p, i) => ({
        tenantId,
        identifierId,
        idrServiceInstanceId: instance.id,
        idrLinkId: p.linkId,
        qualifierPath,
        description: input.description ?? null,
        published: links[i]!,
      })),
    )
    .returning();
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

/** The local record of one link of one of the tenant's identifiers (404 otherwise), and its adapter. */
const loadLink = async (deps: LinkDeps, tenantId: string, identifierId: string, linkId: string) => {
  await loadIdentifier(deps.db, tenantId, identifierId);
  const [record] = await deps.db
    .select()
    .from(identifierLinks)
    .where(and(eq(identifierLinks.tenantId, tenantId), eq(identifierLinks.identifierId, identifierId), eq(identifierLinks.idrLinkId, linkId)));
  if (!record) throw notFound('Link');
  // A link lives on the resolver it was published to; if that instance was removed, no other resolver
  // may be asked about its id: the link is out of reach (desync), never looked up elsewhere.
  const [instance] = record.idrServiceInstanceId
    ? await deps.db.select().from(serviceInstances).where(eq(serviceInstances.id, record.idrServiceInstanceId))
    : [];
  return { record, adapter: instance ? (await adapterFor(deps, instance)).adapter : undefined };
};

const DESYNC_WARNING = 'The identity resolver no longer has this link; the local record is kept for audit';

/** Live upstream data merged with the local record; `desync` and `warning` when upstream lost it. */
export const getLink = async (deps: LinkDeps, tenantId: string, identifierId: string, linkId: string) => {
  const { record, adapter } = await loadLink(deps, tenantId, identifierId, linkId);
  let live;
  try {
    live = adapter ? await adapter.getLink(record.idrLinkId) : undefined;
  } catch (error) {
    throw upstreamFailure(error);
  }
  return live ? { link: live, localRecord: record } : { link: null, localRecord: record, desync: true as const, warning: DESYNC_WARNING };
};

/** Updates upstream, then the local record; 409 with `desync: true` when upstream lost the link. */
export const updateLink = async (deps: LinkDeps, tenantId: string, identifierId: string, linkId: string, patch: Partial<LinkInput>) => {
  assertHrefs([patch], deps.allowPrivateUrls, () => '');
  const changes = publishedFields(canonical(patch));
  const { record, adapter } = await loadLink(deps, tenantId, identifierId, linkId);
  try {
    if (!adapter || !(await adapter.getLink(record.idrLinkId))) {
      throw conflict('The identity resolver no longer has this link', 'IDR_LINK_DESYNC', { desync: true });
    }
    if (Object.keys(changes).length > 0) await adapter.updateLink(record.idrLinkId, toIdrChanges(changes));
  } catch (error) {
    throw upstreamFailure(error);
  }
  const [updated] = await deps.db
    .update(identifierLinks)
    .set({ published: { ...(record.published as PublishedLink), ...changes }, updatedAt: new Date() })
    .where(eq(identifierLinks.id, record.id))
    .returning();
  return updated!;
};

/** Deletes upstream (an already-absent link is fine) and locally. */
export const deleteLink = async (deps: LinkDeps, tenantId: string, identifierId: string, linkId: string) => {
  const { record, adapter } = await loadLink(deps, tenantId, identifierId, linkId);
  try {
    await adapter?.deleteLink(record.idrLinkId);
  } catch (error) {
    throw upstreamFailure(error);
  }
  await deps.db.delete(identifierLinks).where(eq(identifierLinks.id, record.id));
};

