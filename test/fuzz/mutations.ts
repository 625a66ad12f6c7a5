/**
 * Request mutations for the OpenAPI fuzz test: a deterministic random source, a plausible value for
 * a JSON schema, and the hostile variants of values, bodies and parameters sent to every operation.
 */
export type Random = () => number;

/** mulberry32: small, fast, deterministic. */
export const seededRandom = (seed: number): Random => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
};

export const pickOne = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

type Schema = Record<string, unknown>;
export type Resolver = (schema: unknown) => Schema;

const deep = (levels: number): unknown => {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

/** Hostile stand-ins for any single value. */
export const hostileValues: readonly unknown[] = [
  null,
  true,
  -1,
  1e308,
  1.5,
  '',
  ' ',
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  'é✓😀',
  'x'.repeat(300_000),
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "' or 1=1 --",
  'http://[::127.0.0.1]/',
  [],
  [null],
  {},
  { __proto__: { polluted: true } },
  JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}'),
  deep(200),
  Array.from({ length: 2_000 }, (_, i) => i),
];

/** Hostile path and query parameter values (already URL-encoded where they must be). */
export const hostileParams: readonly string[] = [
  'x',
  '0',
  '-1',
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%FF%FE',
  '%E0%A4%A',
  '__proto__',
  'constructor',
  'x'.repeat(5_000),
  '%2E%2E%2F%2E%2E',
  "'%20or%201=1",
  'null',
  '1e999',
  '%F0%9F%98%80',
];

/** A plausible value for a JSON schema (first of unions, example when given), resolving $refs. */
export const plausible = (schema: unknown, resolve: Resolver, depth = 0): unknown => {
  const s = resolve(schema);
  if (depth > 6) return null;
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.enum)) return s.enum[0];
  for (const union of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (Array.isArray(s[union])) return plausible((s[union] as unknown[])[0], resolve, depth + 1);
  }
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, plausible(v, resolve, depth + 1)]));
    }
    case 'array':
      return s.items ? [plausible(s.items, resolve, depth + 1)] : [];
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return 'fuzz';
  }
};

/** A copy of the value with one randomly chosen member (at any depth) replaced by a hostile value. */
export const mutateOneMember = (value: unknown, random: Random): unknown => {
  const hostile = pickOne(random, hostileValues);
  if (value === null || typeof value !== 'object') return hostile;
  const copy = structuredClone(value) as Record<string, unknown> | unknown[];
  const keys = Object.keys(copy);
  if (keys.length === 0) return hostile;
  const key = pickOne(random, keys);
  const inner = (copy as Record<string, unknown>)[key];
  (copy as Record<string, unknown>)[key] = random() < 0.3 ? mutateOneMember(inner, random) : hostile;
  return copy;
};

export interface RawBody {
  text: string;
  contentType: string;
}

/** Whole-body mutations that are not a JSON value of the right shape. */
export const hostileBodies = (valid: unknown): RawBody[] => {
  const json = JSON.stringify(valid) ?? 'null';
  const withDuplicate = json.startsWith('{"') ? `{"name":"first",${json.slice(1, -1)}${json.length > 2 ? ',' : ''}"name":"second"}` : `{"a":1,"a":2}`;
  return [
    { text: '{"unterminated": ', contentType: 'application/json' },
    { text: '', contentType: 'application/json' },
    { text: 'null', contentType: 'application/json' },
    { text: '[]', contentType: 'application/json' },
    { text: '"string"', contentType: 'application/json' },
    { text: withDuplicate, contentType: 'application/json' },
    { text: '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"polluted":1}}}', contentType: 'application/json' },
    { text: json, contentType: 'text/plain' },
    { text: json, contentType: 'application/x-www-form-urlencoded' },
    { text: '--b\r\nContent-Disposition: form-data; name="x"\r\n\r\ny\r\n--b--', contentType: 'multipart/form-data; boundary=b' },
    { text: json, contentType: 'application/json; charset=utf-16' },
    { text: `${'['.repeat(10_000)}${']'.repeat(10_000)}`, contentType: 'application/json' },
  ];
};
