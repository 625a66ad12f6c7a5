import { TtlCache } from '../cache/ttl-cache.ts';
import { sha256Hex } from '../crypto/encoding.ts';
import { cacheMaxEntries, type DocumentSettings } from '../settings/document-settings.ts';
import type { DocumentSource } from './document-source.ts';
import type { JsonLdExpansion } from './jsonld-expansion.ts';
import { collectTermRoles, contextUrlsOf, shapeOf, type TermRoles } from './jsonld-shape.ts';

/** The term roles of one set of context URLs, with the very documents they were read from. */
interface ContextRoles {
  documents: Map<string, unknown>;
  roles: TermRoles['roles'];
  /** SHA-256 of the shapes (jsonld-shape.ts) that expanded without a refusal under exactly these documents (a digest, so an entry stays small however large the payload). */
  accepted: TtlCache<true>;
}

/** Context documents named by `urls` and every context they reference, loaded through `documents`. */
const loadRoles = async (documents: DocumentSource, urls: string[], settings: DocumentSettings): Promise<ContextRoles> => {
  const loaded = new Map<string, unknown>();
  const into: TermRoles = { roles: new Map(), referenced: [...urls] };
  while (into.referenced.length > 0) {
    const url = into.referenced.pop()!;
    if (loaded.has(url)) continue;
    const document = await documents.get(url, 'context');
    loaded.set(url, document);
    collectTermRoles((document as Record<string, unknown>)['@context'], into);
  }
  return { documents: loaded, roles: into.roles, accepted: new TtlCache(settings.contextCacheTtlMs, cacheMaxEntries(settings.cacheMaxEntries)) };
};

/** True while the document source still serves every document the roles were read from (no refresh since). */
const stillCurrent = async (documents: DocumentSource, entry: ContextRoles): Promise<boolean> => {
  for (const [url, document] of entry.documents) {
    if ((await documents.get(url, 'context')) !== document) return false;
  }
  return true;
};

/**
 * The JSON-LD check of issuance: the payload must expand in safe mode (jsonld-expansion.ts). A
 * payload whose shape (jsonld-shape.ts: everything expansion's verdict can depend on) already
 * expanded under the same context documents is accepted without expanding it again; any other
 * payload is expanded, and its shape remembered when it passes. Refusals are never remembered, so
 * every refusal comes from a real expansion with its exact message. Remembered shapes live as long as
 * processed contexts (CONTEXT_CACHE_TTL_MS, CACHE_MAX_ENTRIES) and never outlive their documents.
 */
export const createJsonLdCheck = (documents: DocumentSource, settings: DocumentSettings, expand: JsonLdExpansion) => {
  const byContexts = new TtlCache<Promise<ContextRoles>>(settings.contextCacheTtlMs, cacheMaxEntries(settings.cacheMaxEntries));

  /** The roles for these URLs, read again when a document was refreshed; undefined when a context cannot be had. */
  const rolesFor = async (urls: string[]): Promise<ContextRoles | undefined> => {
    const key = JSON.stringify(urls);
    try {
      let pending = byContexts.get(key);
      if (pending && !(await stillCurrent(documents, await pending))) pending = undefined;
      if (!pending) {
        pending = loadRoles(documents, urls, settings);
        byContexts.set(key, pending);
        pending.catch(() => byContexts.delete(key));
      }
      return await pending;
    } catch {
      return undefined; // the expansion reports why (JSONLD_CONTEXT_FETCH_FAILED or an invalid context)
    }
  };

  return async (payload: unknown): Promise<void> => {
    const urls = contextUrlsOf(payload);
    const contexts = urls && urls.length > 0 ? await rolesFor(urls) : undefined;
    const shape = contexts ? await sha256Hex(shapeOf(payload, contexts.roles)) : undefined;
    if (contexts && shape !== undefined && contexts.accepted.get(shape)) return;
    await expand(payload);
    if (contexts && shape !== undefined && (await stillCurrent(documents, contexts))) contexts.accepted.set(shape, true);
  };
};

export type JsonLdCheck = ReturnType<typeof createJsonLdCheck>;
