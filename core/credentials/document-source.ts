import { metrics } from '../metrics/recorder.ts';
import { TtlCache } from '../cache/ttl-cache.ts';
import { GuardedFetchError, type Fetcher } from '../net/fetcher.ts';
import { cacheMaxEntries, type DocumentSettings } from '../settings/document-settings.ts';
import type { BundledArtefacts } from './bundled-artefacts.ts';

export type DocumentKind = 'schema' | 'context';

/** Largest schema or context we accept (the biggest published UNTP document is about 105 KB). */
export const MAX_DOCUMENT_BYTES = 2 * 1024 * 1024;

/**
 * A schema or context that could not be obtained: `unreachable` (network error, timeout, 5xx, and no
 * usable bundled copy) or `invalid` (the host answered, but not with a JSON document we accept).
 */
export class DocumentFetchError extends Error {
  constructor(
    readonly url: string,
    readonly reason: 'unreachable' | 'invalid',
    message: string,
  ) {
    super(message);
    this.name = 'DocumentFetchError';
  }
}

const HOST_UNREACHABLE = new Set(['network', 'timeout']);

/** What the host said: a document, a definitive refusal, or nothing usable (unreachable). */
const fetchFromHost = async (fetcher: Fetcher, url: string, kind: DocumentKind): Promise<{ document: unknown } | { unreachable: string }> => {
  let response: Response;
  try {
    response = await fetcher(url, { headers: { accept: kind === 'context' ? 'application/ld+json, application/json' : 'application/schema+json, application/json' } });
  } catch (error) {
    if (error instanceof GuardedFetchError && HOST_UNREACHABLE.has(error.reason)) return { unreachable: error.message };
    const message = error instanceof Error ? error.message : String(error);
    throw new DocumentFetchError(url, 'invalid', `${url}: ${message}`);
  }
  if (response.status >= 500) return { unreachable: `HTTP ${response.status}` };
  if (!response.ok) throw new DocumentFetchError(url, 'invalid', `${url}: HTTP ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.byteLength > MAX_DOCUMENT_BYTES) throw new DocumentFetchError(url, 'invalid', `${url}: larger than ${MAX_DOCUMENT_BYTES} bytes`);
  try {
    const document: unknown = JSON.parse(new TextDecoder().decode(bytes));
    if (document === null || typeof document !== 'object' || Array.isArray(document)) throw new Error('not a JSON object');
    return { document };
  } catch (error) {
    throw new DocumentFetchError(url, 'invalid', `${url}: not a JSON document (${(error as Error).message})`);
  }
};

/**
 * JSON Schemas and JSON-LD contexts by URL, through the guarded fetcher, each kind in its own TTL cache
 * (SCHEMA_CACHE_TTL_MS / CONTEXT_CACHE_TTL_MS, CACHE_MAX_ENTRIES). The network is always asked first;
 * the bundled copy stands in only when the host is unreachable and the fallback is on, never when
 * the host answers (a 404 or a broken document is the host's definitive word). Concurrent requests
 * for one URL share one fetch.
 */
export const createDocumentSource = (fetcher: Fetcher, settings: DocumentSettings, bundled: BundledArtefacts) => {
  const maxEntries = cacheMaxEntries(settings.cacheMaxEntries);
  const caches = {
    schema: new TtlCache<Promise<unknown>>(settings.schemaCacheTtlMs, maxEntries),
    context: new TtlCache<Promise<unknown>>(settings.contextCacheTtlMs, maxEntries),
  };

  const obtain = async (url: string, kind: DocumentKind): Promise<unknown> => {
    const answer = await fetchFromHost(fetcher, url, kind);
    if ('document' in answer) return answer.document;
    const copy = settings.bundledArtefacts ? bundled.lookup(url) : undefined;
    if (copy) return copy;
    const why = settings.bundledArtefacts ? 'no bundled copy' : 'bundled artefacts are turned off';
    throw new DocumentFetchError(url, 'unreachable', `${url}: host unreachable (${answer.unreachable}) and ${why}`);
  };

  return {
    get(url: string, kind: DocumentKind): Promise<unknown> {
      const cache = caches[kind];
      const cached = cache.get(url);
      metrics().documentCache(kind, cached !== undefined);
      if (cached) return cached;
      const pending = obtain(url, kind);
      cache.set(url, pending);
      pending.catch(() => cache.delete(url));
      return pending;
    },
  };
};

export type DocumentSource = ReturnType<typeof createDocumentSource>;
