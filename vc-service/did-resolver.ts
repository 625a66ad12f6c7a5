import type { DocumentFetcher } from './did-fetch.ts';
import { didDocument, didWebUrl } from './did-web.ts';
import type { IdentifierStore } from './identifiers.ts';

/** Why a DID did not resolve, in W3C DID Resolution's error names. */
export type ResolutionErrorKind = 'invalidDid' | 'methodNotSupported' | 'notFound' | 'invalidDidDocument';

export type Resolution = { document: Record<string, unknown> } | { error: string; kind: ResolutionErrorKind };

/** Remote documents kept at most, so a stream of distinct DIDs cannot grow the cache without bound. */
const MAX_REMOTE_ENTRIES = 1000;

/**
 * DID documents: this service's own DIDs from its store (the same document it serves), any other
 * did:web over HTTPS through the bounded fetcher, reused for `cacheSeconds`.
 */
export const createDidResolver = (deps: { identifiers: IdentifierStore; fetchDocument: DocumentFetcher; cacheSeconds: number }) => {
  const own = new Map<string, { publicKeyHexes: string; document: Record<string, unknown> }>();
  const remote = new Map<string, { document: Record<string, unknown>; expires: number }>();

  const remember = (did: string, document: Record<string, unknown>) => {
    if (deps.cacheSeconds === 0) return;
    remote.delete(did);
    if (remote.size >= MAX_REMOTE_ENTRIES) remote.delete(remote.keys().next().value!);
    remote.set(did, { document, expires: Date.now() + deps.cacheSeconds * 1000 });
  };

  return {
    async resolve(did: string): Promise<Resolution> {
      const key = await deps.identifiers.signingKey(did);
      if (key) {
        const cached = own.get(did);
        const publicKeyHexes = key.publicKeyHexes.join(',');
        if (cached?.publicKeyHexes === publicKeyHexes) return { document: cached.document };
        const document = didDocument(did, key.publicKeyHexes);
        own.set(did, { publicKeyHexes, document });
        return { document };
      }
      own.delete(did);
      const cached = remote.get(did);
      if (cached && cached.expires > Date.now()) return { document: cached.document };
      const url = didWebUrl(did);
      if (!url) return { error: `unsupported or malformed DID ${did}: only did:web resolves here`, kind: did.startsWith('did:web:') ? 'invalidDid' : 'methodNotSupported' };
      try {
        const body = await deps.fetchDocument(url);
        if (!body || typeof body !== 'object' || Array.isArray(body)) return { error: `${url.href} is not a JSON object`, kind: 'invalidDidDocument' };
        const document = body as Record<string, unknown>;
        if (document.id !== did) return { error: `the document at ${url.href} is for ${String(document.id)}, not ${did}`, kind: 'invalidDidDocument' };
        remember(did, document);
        return { document };
      } catch (error) {
        return { error: `could not fetch ${url.href}: ${error instanceof Error ? error.message : String(error)}`, kind: 'notFound' };
      }
    },
  };
};

export type DidResolver = ReturnType<typeof createDidResolver>;
