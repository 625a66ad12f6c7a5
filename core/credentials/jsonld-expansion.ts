import jsonld from 'jsonld';
import { TtlCache } from '../cache/ttl-cache.ts';
import { cacheMaxEntries, type DocumentSettings } from '../settings/document-settings.ts';
import { CACHEABLE_CONTEXT_TAG, contextResolverFor } from './jsonld-context-cache.ts';
import { DocumentFetchError, type DocumentSource } from './document-source.ts';
import { jsonPointer, payloadRefused } from './payload-errors.ts';

interface JsonLdFailure {
  name?: string;
  message?: string;
  details?: { code?: string; event?: { code?: string; message?: string; details?: Record<string, unknown> } };
}

/** jsonld error codes raised while processing a context rather than the payload's own terms. */
const CONTEXT_PROBLEMS = new Set([
  'invalid local context',
  'invalid remote context',
  'invalid term definition',
  'invalid context entry',
  'invalid context nullification',
  'invalid @context',
  'invalid IRI mapping',
  'invalid type mapping',
  'invalid container mapping',
  'invalid scoped context',
  'recursive context inclusion',
  'context overflow',
]);

/** Path of the first member named `key`, depth first (safe-mode events name the term, not its place). */
const pathOfKey = (value: unknown, key: string, path: (string | number)[] = []): (string | number)[] | undefined => {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = pathOfKey(item, key, [...path, i]);
      if (found) return found;
    }
  } else if (value !== null && typeof value === 'object') {
    if (Object.hasOwn(value, key)) return [...path, key];
    for (const [k, v] of Object.entries(value)) {
      if (k === '@context') continue;
      const found = pathOfKey(v, key, [...path, k]);
      if (found) return found;
    }
  }
  return undefined;
};

/** Path of the first string equal to `text` (an id or type jsonld found relative), depth first. */
const pathOfValue = (value: unknown, text: string, path: (string | number)[] = []): (string | number)[] | undefined => {
  if (value === text) return path;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [k, v] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    if (k === '@context') continue;
    const found = pathOfValue(v, text, [...path, k]);
    if (found) return found;
  }
  return undefined;
};

const refusalOf = (error: JsonLdFailure, payload: unknown) => {
  const event = error.details?.event;
  if (event) {
    // Safe mode: a term that expands to nothing (undefined under the contexts) or another lossy construct.
    const details = event.details ?? {};
    const property = typeof details.property === 'string' ? details.property : undefined;
    if (property) {
      return payloadRefused('JSONLD_DOCUMENT_INVALID', jsonPointer(pathOfKey(payload, property) ?? []), `"${property}" is not defined by the credential's @context`);
    }
    const relative = [details.relativeIri, details.id, details.type].find((v): v is string => typeof v === 'string');
    if (relative) {
      return payloadRefused('JSONLD_DOCUMENT_INVALID', jsonPointer(pathOfValue(payload, relative) ?? []), `"${relative}" is neither an absolute IRI nor a term the @context defines (${event.code})`);
    }
    return payloadRefused('JSONLD_DOCUMENT_INVALID', '', `${event.message ?? 'not valid JSON-LD'} (${event.code})`);
  }
  const code = error.details?.code;
  const pointer = code && CONTEXT_PROBLEMS.has(code) ? '/@context' : '';
  return payloadRefused('JSONLD_DOCUMENT_INVALID', pointer, `${code ?? 'invalid JSON-LD'}: ${error.message ?? 'expansion failed'}`);
};

/** The JSON-LD processor an expansion runs: jsonld.js with our context caches (jsonld-context-cache.ts). */
export interface JsonLdEngine {
  expand: (input: jsonld.JsonLdDocument, options: jsonld.Options.Expand) => Promise<unknown[]>;
  contextResolver: (shared: TtlCache<unknown>) => unknown;
}
const ENGINE: JsonLdEngine = { expand: (input, options) => jsonld.expand(input, options), contextResolver: contextResolverFor };

/**
 * JSON-LD expansion in safe mode, so a payload term its contexts do not define (which plain expansion
 * silently drops) or a broken context refuses the payload. Contexts load through the document source
 * (guarded fetch, CONTEXT_CACHE_TTL_MS, bundled fallback); processed contexts are cached for as long.
 */
export const createJsonLdExpansion = (documents: DocumentSource, settings: DocumentSettings, engine: JsonLdEngine = ENGINE) => {
  const processed = new TtlCache<unknown>(settings.contextCacheTtlMs, cacheMaxEntries(settings.cacheMaxEntries));

  return async (payload: unknown): Promise<unknown[]> => {
    let unobtainable: DocumentFetchError | undefined;
    const documentLoader = async (url: string) => {
      try {
        const document = await documents.get(url, 'context');
        return { contextUrl: null, documentUrl: url, document, tag: CACHEABLE_CONTEXT_TAG };
      } catch (error) {
        if (error instanceof DocumentFetchError) unobtainable = error;
        throw error;
      }
    };
    try {
      return await engine.expand(payload as jsonld.JsonLdDocument, {
        documentLoader,
        safe: true,
        contextResolver: engine.contextResolver(processed),
      } as unknown as jsonld.Options.Expand);
    } catch (error) {
      if (unobtainable) throw payloadRefused('JSONLD_CONTEXT_FETCH_FAILED', '/@context', `context ${unobtainable.message}`);
      throw refusalOf(error as JsonLdFailure, payload);
    }
  };
};

export type JsonLdExpansion = ReturnType<typeof createJsonLdExpansion>;
