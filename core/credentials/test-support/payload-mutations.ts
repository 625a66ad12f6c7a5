/** Random mutations of a JSON document, for tests that compare two JSON-LD checks on the same payloads. */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export const clone = <T>(value: T): T => structuredClone(value);

/** Deterministic pseudo-random numbers (mulberry32), so a failure names a reproducible mutant. */
export const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/** Every place in a document: [parent, key] pairs, `@context` included. */
const places = (value: Json, out: [Record<string, Json> | Json[], string | number][] = []) => {
  if (Array.isArray(value)) value.forEach((item, i) => (out.push([value, i]), places(item, out)));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push([value, k]), places(v, out);
  return out;
};

/** Values that IRI expansion, type selection or value checks tell apart, and plain ones that they do not. */
const REPLACEMENTS: Json[] = [
  'plain text', '', 'relative-ref', '../up', '@id', '@type', '@vocab', '@foo', '_:b0', 'https://example.com/x',
  'https://example.com/a b', 'ex:thing', 'urn:uuid:0b7c', 'did:web:example.com', '//host/path', 'Product',
  'CredentialIssuer', 'UnknownType', 'en', 'not a language!', 'https://www.w3.org/ns/credentials/v2',
  42, 0.5, true, false, null, {}, [], [null], { id: 'relative' }, { '@value': 'x', '@language': 'en' },
  { type: ['Product'], name: 'x' }, { unknownTerm: 'x' },
];
const NEW_KEYS = ['unknownTerm', 'name', 'id', 'type', '@id', '@type', '@context', '@value', '@language', 'description', '__proto__'];

export const mutate = (original: Json, next: () => number): Json => {
  const copy = clone(original);
  const all = places(copy);
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!;
  const [parent, key] = pick(all);
  const kind = next();
  if (kind < 0.6 || Array.isArray(parent)) {
    (parent as Record<string | number, Json>)[key] = clone(pick(REPLACEMENTS));
  } else if (kind < 0.8) {
    const value = (parent as Record<string, Json>)[key as string]!;
    delete (parent as Record<string, Json>)[key as string];
    Object.defineProperty(parent, pick(NEW_KEYS), { value, enumerable: true, writable: true, configurable: true });
  } else if (kind < 0.9) {
    delete (parent as Record<string, Json>)[key as string];
  } else {
    Object.defineProperty(parent, pick(NEW_KEYS), { value: clone(pick(REPLACEMENTS)), enumerable: true, writable: true, configurable: true });
  }
  return copy;
};

