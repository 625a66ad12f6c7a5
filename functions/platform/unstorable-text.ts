import type { Context } from 'hono';
import { matchedRoutes } from 'hono/route';
import { badRequest } from '../../core/errors.ts';
import { stepBudget } from '../../core/limits/bounded-steps.ts';

/**
 * PostgreSQL stores neither NUL characters nor unpaired UTF-16 surrogates (`\u0000`, `\ud800`), so
 * they are refused here, once, for every path parameter, query parameter and JSON string or key:
 * 400 naming where. Also refused: JSON nested deeper than MAX_JSON_DEPTH (jsonb and our own walkers
 * recurse) and path segments whose percent-encoding is not UTF-8.
 */
export const MAX_JSON_DEPTH = 64;
const UNSTORABLE = 'must not contain NUL characters or invalid Unicode';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const storable = (value: string) => !value.includes('\u0000') && !LONE_SURROGATE.test(value);

const fieldPath = (path: (string | number)[]) =>
  path.map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? key : `.${key}`)).join('') || 'body';

/** Values looked at between two yields to the event loop: a large body is checked in bounded steps. */
const NODES_PER_STEP = 20_000;

/** The first unstorable string or key in a parsed JSON value, or excessive depth (iterative: no stack to overflow). */
const jsonProblem = async (root: unknown): Promise<string | undefined> => {
  const pending: { value: unknown; path: (string | number)[] }[] = [{ value: root, path: [] }];
  const budget = stepBudget(NODES_PER_STEP);
  while (pending.length > 0) {
    // Awaited only at a step's end: an `await` of undefined would still cost a pause on every value.
    const pause = budget.spend(1);
    if (pause) await pause;
    const { value, path } = pending.pop()!;
    if (typeof value === 'string') {
      if (!storable(value)) return `${fieldPath(path)}: ${UNSTORABLE}`;
    } else if (value !== null && typeof value === 'object') {
      if (path.length >= MAX_JSON_DEPTH) return `${fieldPath(path)}: must not nest deeper than ${MAX_JSON_DEPTH} levels`;
      if (Array.isArray(value)) value.forEach((item, i) => pending.push({ value: item, path: [...path, i] }));
      else {
        for (const [key, item] of Object.entries(value)) {
          if (!storable(key)) return `${fieldPath(path)}: a key ${UNSTORABLE}`;
          pending.push({ value: item, path: [...path, key] });
        }
      }
    }
  }
  return undefined;
};

/** The route's name for the n-th path segment (`:id` → `id`), else `path`. */
const segmentName = (routePath: string | undefined, index: number) => {
  const segment = routePath?.split('/')[index];
  return segment?.startsWith(':') ? segment.slice(1).replace(/\{.*\}$/, '') : 'path';
};

const pathProblem = (pathname: string, routePath: string | undefined): string | undefined => {
  const segments = pathname.split('/');
  for (const [index, raw] of segments.entries()) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      return `${segmentName(routePath, index)}: must be percent-encoded UTF-8`;
    }
    if (!storable(decoded)) return `${segmentName(routePath, index)}: ${UNSTORABLE}`;
  }
  return undefined;
};

/** The most specific matched route path (the operation's, not a `*` middleware's). */
const operationPath = (c: Context) =>
  matchedRoutes(c).filter((r) => r.method !== 'ALL' && !r.path.endsWith('*')).at(-1)?.path;

/** Path segments and query parameters (a raw URL is ASCII: only percent-encoding can carry a NUL or a surrogate). */
export const rejectUnstorableUrl = (c: Context): void => {
  const url = c.req.url;
  const queryStart = url.indexOf('?');
  const pathStart = url.indexOf('/', url.indexOf('//') + 2);
  const pathname = url.slice(pathStart, queryStart === -1 ? undefined : queryStart);
  const problem =
    (pathname.includes('%') ? pathProblem(pathname, operationPath(c)) : undefined) ??
    (queryStart === -1
      ? undefined
      : Object.entries(c.req.queries()).flatMap(([name, values]) =>
          !storable(name) ? [`query: a parameter name ${UNSTORABLE}`] : values.filter((v) => !storable(v)).map(() => `${name}: ${UNSTORABLE}`),
        )[0]);
  if (problem) throw badRequest(problem);
};

/** Every string and key of a parsed JSON body, and its depth (request-body.ts calls it after the parse). */
export const rejectUnstorableJson = async (c: Context): Promise<void> => {
  const problem = await jsonProblem(await c.req.json());
  if (problem) throw badRequest(problem);
};
