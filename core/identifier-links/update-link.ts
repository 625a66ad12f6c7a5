import { eq } from 'drizzle-orm';
import { identifierLinks } from '../../db/schema/index.ts';
import { assertHrefs, assertPublishableRels, canonical } from './link-checks.ts';
import { publishedFields, toIdrChanges, type LinkInput, type PublishedLink } from './link-fields.ts';
import { desyncConflict, loadLink, type LinkDeps } from './link-repository.ts';
import { lockDocument } from './resolver-document.ts';

/**
 * Changes a published link: everything is validated first; then the local record is written
 * (uncommitted), then the resolver, then the commit. A local failure sends nothing upstream; a
 * resolver refusal or failure rolls the local write back; a failed commit after the resolver took the
 * change puts the previous values back upstream. 409 with `desync: true` when upstream lost the link.
 */
export const updateLink = async (deps: LinkDeps, tenantId: string, identifierId: string, linkId: string, patch: Partial<LinkInput>) => {
  assertHrefs([patch], deps.allowPrivateUrls, () => '');
  assertPublishableRels([patch], () => '');
  const changes = publishedFields(canonical(patch));
  const { record, document, upstream } = await loadLink(deps, tenantId, identifierId, linkId);
  if (!upstream) throw desyncConflict();
  const before = record.published as PublishedLink;
  let upstreamChanged = false;
  try {
    return await deps.db.transaction(async (tx) => {
      await lockDocument(tx, upstream.instance.id, document);
      let live;
      try {
        live = await upstream.adapter.getLink(record.idrLinkId);
      } catch (error) {
        throw upstream.fail(error);
      }
      if (!live) throw desyncConflict();
      const [updated] = await tx
        .update(identifierLinks)
        .set({ published: { ...before, ...changes }, updatedAt: new Date() })
        .where(eq(identifierLinks.id, record.id))
        .returning();
      if (Object.keys(changes).length > 0) {
        try {
          await upstream.adapter.updateLink(record.idrLinkId, toIdrChanges(changes));
        } catch (error) {
          throw upstream.fail(error);
        }
        upstreamChanged = true;
      }
      return updated!;
    });
  } catch (error) {
    if (upstreamChanged) {
      const previous = Object.fromEntries(Object.keys(changes).map((key) => [key, before[key as keyof PublishedLink]]));
      await upstream.adapter.updateLink(record.idrLinkId, toIdrChanges(previous)).catch((restoreError: unknown) =>
        deps.logger.error('Link changed upstream but not locally; restoring it failed', {
          idrServiceInstanceId: upstream.instance.id,
          idrLinkId: record.idrLinkId,
          error: restoreError instanceof Error ? restoreError.message : String(restoreError),
        }),
      );
    }
    throw error;
  }
};
