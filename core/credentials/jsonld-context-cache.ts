import ContextResolver from 'jsonld/lib/ContextResolver.js';
import jsonldUtil from 'jsonld/lib/util.js';
import { TtlCache } from '../cache/ttl-cache.ts';

/*
 * Why this file touches jsonld.js internals (jsonld 9.0.0; re-check on upgrade):
 *
 * 1. Speed. Each type-scoped context (UNTP 0.7.0 has ~200 of them) makes jsonld clone the active
 *    context, and its generic deep clone copies every term definition, including the nested scoped
 *    contexts: ~300 ms to expand one DPP. Term definitions are never changed once created (a redefinition
 *    creates a new object), so copying the Map of definitions shallowly is equivalent and brings one
 *    expansion to ~20 ms. Only Maps are affected; jsonld clones no other Map.
 * 2. Processed-context cache. jsonld keeps processed remote contexts in a private, unbounded-lifetime
 *    LRU only when the loader tags them `static`. We pass our own shared cache instead, so processed
 *    contexts live exactly as long as CONTEXT_CACHE_TTL_MS and within CACHE_MAX_ENTRIES.
 */
const deepClone = jsonldUtil.clone;
jsonldUtil.clone = (value: unknown) => (value instanceof Map ? new Map(value) : deepClone(value));

/** A context resolver for one expansion, sharing processed contexts through `shared`. */
export const contextResolverFor = (shared: TtlCache<unknown>) => new ContextResolver({ sharedCache: shared });

/** The tag that lets jsonld keep a loaded context in the shared cache. */
export const CACHEABLE_CONTEXT_TAG = 'static';
