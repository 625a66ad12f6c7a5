import { identifierLinks } from '../../db/schema/index.ts';
import { idrLinkKey, type IdrAdapter, type IdrDocument, type IdrLink, type StoredIdrLink } from '../adapters/idr/idr-adapter.ts';
import { IdrError } from '../adapters/idr/idr-errors.ts';
import type { Logger } from '../logging/logger.ts';
import { assertDocumentNotOwnedByAnother } from './document-owner.ts';
import { adapterFor, resolveIdrInstance } from './idr-instance.ts';
import { assertDistinctLinks, assertHrefs, assertNotYetPublished, assertPublishableRels, canonical } from './link-checks.ts';
import { publishedFields, toIdrLink, type LinkInput, type PublishedLink } from './link-fields.ts';
import { loadIdentifier, type LinkDeps, type LinkRecord } from './link-repository.ts';
import { normaliseQualifierPath } from './qualifier-path.ts';
import { documentName, documentOf, lockDocument } from './resolver-document.ts';
import { idrFailure, publishFieldName } from './upstream-errors.ts';

/** Each requested link's new id: the stored link with its key that was not there before. */
const newLinkIds = (requested: IdrLink[], before: StoredIdrLink[], after: StoredIdrLink[]) => {
  const old = new Set(before.map((l) => l.linkId));
  return requested.map((link) => {
    const match = after.find((s) => !old.has(s.linkId) && s.active !== false && idrLinkKey(s) === idrLinkKey(link));
    if (!match) throw new IdrError('unavailable', 'The resolver accepted the links but does not list them');
    return match.linkId;
  });
};

/**
 * After a failure that followed our registration (no answer, the read-back, our insert): removes
 * upstream whatever of ours became live, so nothing stays published without a local record. If the
 * resolver cannot be asked either, the links it may hold are logged for the operator.
 */
const removeUnrecorded = async (adapter: IdrAdapter, document: IdrDocument, before: StoredIdrLink[], requested: IdrLink[], log: { logger: Logger; instanceId: string }) => {
  const old = new Set(before.map((l) => l.linkId));
  const ours = new Set(requested.map(idrLinkKey));
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const stray = (await adapter.listLinks(document)).filter((l) => !old.has(l.linkId) && ours.has(idrLinkKey(l)));
      for (const link of stray) await adapter.deleteLink(link.linkId);
      return;
    } catch {}
  }
  log.logger.error('Links may be live on the identity resolver without a local record', {
    idrServiceInstanceId: log.instanceId,
    document: documentName(document),
    targetUrls: requested.map((l) => l.targetUrl),
  });
};

/**
 * Publishes links for one of the tenant's identifiers and records each one. Everything the API can
 * check is checked before the resolver is called; then, holding the document's lock, the document is
 * read (ownership, duplicates, its description), the links registered, read back and recorded, in one
 * transaction. A failure after the registration removes what it made live before answering.
 */
export const publishLinks = async (
  deps: LinkDeps,
  tenantId: string,
  identifierId: string,
  input: { links: LinkInput[]; qualifierPath?: string; description?: string },
): Promise<LinkRecord[]> => {
  const identifier = await loadIdentifier(deps.db, tenantId, identifierId);
  assertHrefs(input.links, deps.allowPrivateUrls, (i) => `links[${i}].`);
  assertPublishableRels(input.links, (i) => `links[${i}].`);
  const links = input.links.map(canonical).map((l) => publishedFields(l) as PublishedLink);
  assertDistinctLinks(links);
  const { scheme } = identifier;
  const qualifierPath = await normaliseQualifierPath(input.qualifierPath ?? '/', scheme.qualifiers);
  const instance = await resolveIdrInstance(deps, tenantId, [scheme.idrServiceInstanceId, scheme.registrar.idrServiceInstanceId]);
  const { adapter, config } = await adapterFor(deps, instance);
  const document = documentOf(identifier, qualifierPath);
  const requested = links.map((l) => toIdrLink(l, config));
  const fail = (error: unknown) =>
    idrFailure(error, { logger: deps.logger, idrServiceInstanceId: instance.id, fieldName: publishFieldName(links), namespace: scheme.registrar.namespace, correlationId: deps.correlationId });

  return deps.db.transaction(async (tx) => {
    await lockDocument(tx, instance.id, document);
    let before: StoredIdrLink[];
    let description: string;
    try {
      before = await adapter.listLinks(document);
      await assertDocumentNotOwnedByAnother(tx, tenantId, instance.id, document, before);
      assertNotYetPublished(requested, before);
      // The resolver replaces the document's description with every registration: keep the one it holds.
      description = input.description ?? (before.length ? await adapter.documentDescription(document) : undefined) ?? `${scheme.name} ${identifier.value}`;
    } catch (error) {
      throw fail(error);
    }
    try {
      await adapter.registerLinks({ ...document, description, links: requested });
    } catch (error) {
      if (!(error instanceof IdrError && error.kind === 'rejected')) await removeUnrecorded(adapter, document, before, requested, { logger: deps.logger, instanceId: instance.id });
      throw fail(error);
    }
    try {
      const ids = newLinkIds(requested, before, await adapter.listLinks(document));
      return await tx
        .insert(identifierLinks)
        .values(
          ids.map((idrLinkId, i) => ({
            tenantId,
            identifierId,
            idrServiceInstanceId: instance.id,
            idrLinkId,
            qualifierPath,
            description: input.description ?? null,
            published: links[i]!,
          })),
        )
        .returning();
    } catch (error) {
      await removeUnrecorded(adapter, document, before, requested, { logger: deps.logger, instanceId: instance.id });
      throw fail(error);
    }
  });
};
