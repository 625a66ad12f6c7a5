import ContextResolver from 'jsonld/lib/ContextResolver.js';
import ResolvedContext from 'jsonld/lib/ResolvedContext.js';
import jsonldUtil from 'jsonld/lib/util.js';
import { TtlCache } from '../cache/ttl-cache.ts';

/*
 * Why this file touches jsonld.js internals (jsonld 9.0.0; re-check on upgrade):
 *
 * 1. Speed of a clone. Each type-scoped context (UNTP 0.7.0 has ~200 of them) makes jsonld clone the
 *    active context, and its generic deep clone copies every term definition, including the nested scoped
 *    contexts: ~300 ms to expand one DPP. Term definitions are never changed once created (a redefinition
 *    creates a new object), so copying the Map of definitions shallowly is equivalent and brings one
 *    expansion to ~20 ms. Only Maps are affected; jsonld clones no other Map. A flat object of primitives (the
 *    `protected` table of an active context) is copied without the generic clone's call per member.
 * 2. Processed-context cache. jsonld keeps processed remote contexts in a private, unbounded-lifetime
 *    LRU only when the loader tags them `static`. We pass our own shared cache instead, so processed
 *    contexts live exactly as long as CONTEXT_CACHE_TTL_MS and within CACHE_MAX_ENTRIES.
 * 3. Processed contexts found by content, not only by identity. jsonld remembers "context document D
 *    processed on active context A" keyed by the object A. But before applying a type-scoped context it
 *    clones A, and every revert to a previous context is a fresh clone too, so in practice every scoped
 *    context of every node was processed again on every expansion (most of the ~20 ms). Below, an active
 *    context that is a clean clone (nothing defined or set on it since it was copied) of one jsonld already
 *    produced gets the same key as any other clean clone of it, with its previous context keyed alike; a
 *    context jsonld is still building has no key and is processed exactly as before. A hit returns what
 *    jsonld itself stored for that key (the processed context and the events to replay), so an expansion
 *    does exactly what it did with jsonld's identity cache hitting, only more often.
 */

/** The Map of term definitions of an active context, copied by our clone: records any change made after the copy. */
class TermMap<K, V> extends Map<K, V> {
  declare changed: boolean;
  /** A copy made by the native Map constructor (fast), then given this class's methods. */
  static copyOf<K, V>(entries: Map<K, V>): TermMap<K, V> {
    const copy = Object.setPrototypeOf(new Map(entries), TermMap.prototype) as TermMap<K, V>;
    copy.changed = false;
    return copy;
  }
  override set(key: K, value: V) {
    this.changed = true;
    return super.set(key, value);
  }
  override delete(key: K) {
    this.changed = true;
    return super.delete(key);
  }
  override clear() {
    this.changed = true;
    super.clear();
  }
}

interface ActiveContext {
  mappings: Map<string, unknown>;
  previousContext?: ActiveContext;
  [key: string]: unknown;
}

/** Active contexts jsonld produced (or its initial ones), each with a key; they are never changed afterwards. */
const settled = new WeakMap<object, string>();
/** The settled context a term map was copied from. */
const copiedFrom = new WeakMap<Map<unknown, unknown>, ActiveContext>();
/** The settled context owning a term map. */
const ownerOf = new WeakMap<Map<unknown, unknown>, ActiveContext>();
let nextKey = 0;

const settle = (context: ActiveContext): string => {
  let key = settled.get(context);
  if (key === undefined) {
    key = `s${(nextKey += 1)}`;
    settled.set(context, key);
    ownerOf.set(context.mappings, context);
  }
  return key;
};

/** Members the clone copies from its source; these three it leaves out, so a clean clone has none of them. */
const COPIED = ['@base', '@language', '@vocab'] as const;
const NOT_COPIED = ['processingMode', '@direction', '@version'] as const;

/**
 * The content key of an active context, or undefined when it has none (one jsonld is building).
 * Settled contexts: their own key. The initial context (jsonld caches it and never changes it) is
 * recognised by its plain Map. A clone: the key of its source and of its previous context, if its term
 * map and members are exactly what the clone copied.
 */
const keyOf = (context: ActiveContext): string | undefined => {
  const known = settled.get(context);
  if (known !== undefined) return known;
  const map = context.mappings;
  if (!(map instanceof TermMap)) return map instanceof Map ? settle(context) : undefined;
  if (map.changed) return undefined;
  const source = copiedFrom.get(map);
  if (!source) return undefined;
  for (const member of COPIED) if (context[member] !== source[member] || member in context !== member in source) return undefined;
  for (const member of NOT_COPIED) if (member in context) return undefined;
  const previous = context.previousContext === undefined ? '-' : keyOf(context.previousContext);
  return previous === undefined ? undefined : `c(${settled.get(source)},${previous})`;
};

/**
 * jsonld's own clone of a plain object whose members are all primitives (an active context's `protected` table),
 * done without its per-member recursion: the same members, assigned in the same `for…in` order.
 */
const cloneFlat = (value: Record<string, unknown>): Record<string, unknown> | undefined => {
  const copy: Record<string, unknown> = {};
  for (const key in value) {
    const member = value[key];
    if (member !== null && typeof member === 'object') return undefined;
    copy[key] = member;
  }
  return copy;
};

const deepClone = jsonldUtil.clone;
jsonldUtil.clone = (value: unknown) => {
  if (!(value instanceof Map)) {
    const flat = value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype ? cloneFlat(value as Record<string, unknown>) : undefined;
    return flat ?? deepClone(value);
  }
  const copy = TermMap.copyOf(value);
  // A copy of a clean copy is a copy of the same settled context.
  const source = ownerOf.get(value) ?? (value instanceof TermMap && !value.changed ? copiedFrom.get(value) : undefined);
  if (source) copiedFrom.set(copy, source);
  return copy;
};

interface Processed {
  context: ActiveContext;
  events: unknown[];
}
const isProcessed = (value: unknown): value is Processed =>
  typeof value === 'object' && value !== null && Array.isArray((value as Processed).events) && (value as Processed).context?.mappings instanceof Map;

/** Processed contexts kept per context document, by content key; the oldest leave first past this many. */
const MAX_PROCESSED_PER_DOCUMENT = 500;
const byContent = new WeakMap<object, Map<string, Processed>>();
const identityGet = ResolvedContext.prototype.getProcessed;
const identitySet = ResolvedContext.prototype.setProcessed;

ResolvedContext.prototype.getProcessed = function (activeCtx: object) {
  const key = keyOf(activeCtx as ActiveContext);
  return (key === undefined ? undefined : byContent.get(this)?.get(key)) ?? identityGet.call(this, activeCtx);
};

ResolvedContext.prototype.setProcessed = function (activeCtx: object, processed: unknown) {
  identitySet.call(this, activeCtx, processed);
  // Only processed contexts (an `@import` stores a merged context document here, which stays by identity).
  if (!isProcessed(processed)) return;
  const key = keyOf(activeCtx as ActiveContext);
  if (key === undefined) return;
  settle(processed.context);
  let kept = byContent.get(this);
  if (!kept) byContent.set(this, (kept = new Map()));
  if (kept.size >= MAX_PROCESSED_PER_DOCUMENT) kept.delete(kept.keys().next().value!);
  kept.set(key, processed);
};

/** A context resolver for one expansion, sharing processed contexts through `shared`. */
export const contextResolverFor = (shared: TtlCache<unknown>) => new ContextResolver({ sharedCache: shared });

/** The tag that lets jsonld keep a loaded context in the shared cache. */
export const CACHEABLE_CONTEXT_TAG = 'static';
