/*
 * The "shape" of a payload as far as JSON-LD expansion in safe mode can tell (jsonld 9; re-check on
 * upgrade): two payloads of one shape, under the same context documents, expand alike or fail alike.
 *
 * Why that holds. Expansion's verdict (an error, or a safe-mode event that refuses the payload)
 * depends on the contexts, on every member name (each is expanded as a term or IRI, and selects
 * property-scoped contexts), on the values of `@type` and its aliases (they select type-scoped
 * contexts and must expand to IRIs), on `@context`, `@value`, `@language`, `@direction` and every other
 * keyword's value, on the values of terms coerced to `@vocab`, `@json` or `@none`, and on how values
 * nest (objects, arrays, null, the JSON type of scalars). A string under an `@id`-coerced term or
 * `@id` itself counts only through what IRI expansion does with it: a keyword-like string is
 * reserved, `_:` is a blank node, an absolute IRI stays absolute (its prefix may be a term, so the
 * prefix counts), anything else may resolve against `@base` or stay relative. A scalar under any
 * other term becomes `{"@value": …}` (with the term's datatype or language) and is never inspected.
 *
 * So the shape keeps: every member name; the whole value of keywords, of `@type` aliases and of terms
 * any context defines with another coercion, a container other than `@set`/`@list`/`@language`,
 * `@reverse` or `@nest` (where values are read as something else than literals), or an IRI that is a
 * bare name (expanded as a term, it may alias a keyword: `"myId": "id"`); IRI classes for
 * `@id` and `@id`-coerced strings; and only the JSON type of every other scalar. The roles come from
 * every definition of a term in every context the payload can reach (a term plain in one scope and
 * coerced in another takes the stricter role everywhere). Payloads with an inline (object) context
 * have no shape here: their terms are not in the loaded documents.
 */

/** How a member's value counts: as a literal (JSON type only), as an IRI (its class), or verbatim. */
export type Role = 'literal' | 'iri' | 'verbatim';

const STRICTNESS: Record<Role, number> = { literal: 0, iri: 1, verbatim: 2 };
const stricter = (a: Role | undefined, b: Role): Role => (a === undefined || STRICTNESS[b] > STRICTNESS[a] ? b : a);

const LIST_CONTAINERS = new Set(['@set', '@list', '@language']);
const VALUE_COERCIONS = new Set(['@vocab', '@json', '@none']);

/**
 * The role an IRI mapping (a string definition or `@id`) gives: `@id` makes an alias of `@id`, another
 * keyword an alias of that keyword; a bare name (no `:`) is expanded as a term and may itself be an
 * alias of a keyword (`"myId": "id"` where `id` is `@id`), so it is taken as strictly as a keyword.
 */
const roleOfMapping = (iri: string): Role | undefined => {
  if (iri === '@id') return 'iri';
  if (iri.startsWith('@') || !iri.includes(':')) return 'verbatim';
  return undefined;
};

/** The role a term definition gives its values. */
const roleOfDefinition = (definition: unknown): Role => {
  if (typeof definition === 'string') return roleOfMapping(definition) ?? 'literal';
  if (definition === null || typeof definition !== 'object' || Array.isArray(definition)) return 'verbatim';
  const d = definition as Record<string, unknown>;
  if ('@reverse' in d || '@nest' in d) return 'verbatim';
  const id = d['@id'];
  if (id !== undefined && typeof id !== 'string') return 'verbatim';
  const mapped = typeof id === 'string' ? roleOfMapping(id) : undefined;
  if (mapped) return mapped;
  const containers = d['@container'] === undefined ? [] : Array.isArray(d['@container']) ? d['@container'] : [d['@container']];
  if (!containers.every((c) => typeof c === 'string' && LIST_CONTAINERS.has(c))) return 'verbatim';
  const type = d['@type'];
  if (type === undefined) return 'literal';
  if (typeof type !== 'string' || VALUE_COERCIONS.has(type) || roleOfMapping(type) === 'verbatim') return 'verbatim';
  return type === '@id' ? 'iri' : 'literal';
};

export interface TermRoles {
  roles: Map<string, Role>;
  /** Context URLs referenced from the walked contexts (scoped contexts, `@import`), still to walk. */
  referenced: string[];
}

/** Adds every term definition of a context (an object, a URL, or an array of them) to `into`. */
export const collectTermRoles = (context: unknown, into: TermRoles): void => {
  if (typeof context === 'string') {
    into.referenced.push(context);
    return;
  }
  if (Array.isArray(context)) {
    for (const item of context) collectTermRoles(item, into);
    return;
  }
  if (context === null || typeof context !== 'object') return;
  for (const [term, definition] of Object.entries(context)) {
    if (term === '@import' && typeof definition === 'string') into.referenced.push(definition);
    if (term.startsWith('@')) continue;
    into.roles.set(term, stricter(into.roles.get(term), roleOfDefinition(definition)));
    if (definition !== null && typeof definition === 'object' && '@context' in definition) {
      collectTermRoles((definition as Record<string, unknown>)['@context'], into);
    }
  }
};

/**
 * Every context URL a payload names, sorted and unique; undefined when any `@context` in it holds
 * something else than URLs (an inline context: its terms are not in any loaded document).
 */
export const contextUrlsOf = (payload: unknown): string[] | undefined => {
  const urls = new Set<string>();
  let inline = false;
  const visit = (value: unknown) => {
    if (inline || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) return value.forEach(visit);
    for (const [key, member] of Object.entries(value)) {
      if (key === '@context') {
        for (const item of Array.isArray(member) ? member : [member]) {
          if (typeof item === 'string') urls.add(item);
          else inline = true;
        }
      } else {
        visit(member);
      }
    }
  };
  visit(payload);
  return inline ? undefined : [...urls].sort();
};

/** jsonld's own test for an absolute IRI (lib/url.js, `isAbsolute`), kept character for character. */
const ABSOLUTE_IRI = /^([A-Za-z][A-Za-z0-9+-.]*|_):[^\s]*$/;
const KEYWORD_LIKE = /^@[a-zA-Z]+$/;

/** What IRI expansion can tell apart in a string: keyword-like and non-absolute strings stay as they are. */
const iriClass = (value: string): string => {
  if (KEYWORD_LIKE.test(value)) return value;
  const match = ABSOLUTE_IRI.exec(value);
  if (!match) return value;
  const prefix = match[1]!;
  if (prefix === '_') return '_:';
  return value.startsWith('//', prefix.length + 1) ? `${prefix}://` : `${prefix}:`;
};

const roleOfMember = (key: string, roles: Map<string, Role>): Role => {
  if (key === '@id') return 'iri';
  if (key.startsWith('@')) return 'verbatim';
  return roles.get(key) ?? 'literal';
};

/** The payload reduced to its shape (see the top of this file), as one string. */
export const shapeOf = (payload: unknown, roles: Map<string, Role>): string => {
  const reduce = (value: unknown, role: Role): unknown => {
    if (role === 'verbatim') return value;
    if (Array.isArray(value)) return value.map((item) => reduce(item, role));
    if (value === null) return null;
    if (typeof value === 'object') {
      // No prototype: a member named `__proto__` stays a member (assignment would set the prototype).
      const out: Record<string, unknown> = Object.create(null);
      for (const [key, member] of Object.entries(value)) out[key] = reduce(member, roleOfMember(key, roles));
      return out;
    }
    if (typeof value === 'string') return role === 'iri' ? iriClass(value) : '';
    if (role === 'iri') return value;
    return typeof value === 'number' ? 0 : false;
  };
  return JSON.stringify(reduce(payload, 'literal'));
};
