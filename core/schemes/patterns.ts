import type { RE2JS } from 're2js';

/**
 * The validation-pattern rules of schemes and qualifiers, in one place for the API and the seed file.
 * Tenants choose these patterns, so they run on RE2 (re2js: linear time, no backtracking, also on edge
 * runtimes): `^(a+)+$` cannot stall the process. A pattern is RE2 syntax compiled without flags and
 * applied as written (not anchored for you), so `^\d{14}$` means "exactly 14 digits". RE2 has no
 * lookaround, no backreferences and no `\u` escapes (write `\x{e9}`); repeat counts stop at 1000.
 *
 * re2js (~150 KB minified) is imported on first use, not with this module: an edge bundle then carries it as a
 * module of its own that an isolate loads only when a request checks a pattern (scripts/edge-bundle.ts splits
 * it off), so every check here is async.
 */

let engine: Promise<typeof RE2JS> | undefined;

/** re2js, loaded once per process or isolate (a failed load is tried again by the next check). */
const re2 = () => {
  engine ??= import('re2js').then(
    (module) => module.RE2JS,
    (error: unknown) => {
      engine = undefined;
      throw error;
    },
  );
  return engine;
};

const compiled = new Map<string, RE2JS>();
const COMPILED_CACHE_SIZE = 500;

/** The compiled pattern, from the cache when it is there; throws RE2's error when it does not compile. */
const compile = (engine: typeof RE2JS, pattern: string): RE2JS => {
  let re = compiled.get(pattern);
  if (!re) {
    re = engine.compile(pattern);
    if (compiled.size >= COMPILED_CACHE_SIZE) compiled.delete(compiled.keys().next().value as string);
    compiled.set(pattern, re);
  }
  return re;
};

export const PATTERN_MESSAGE = 'must be a valid regular expression';

/**
 * Why the pattern cannot be used (a 400 message naming the reason), or undefined when it compiles.
 * We evaluate with RE2; the pattern must also compile as a JavaScript RegExp, because resolvers and
 * clients that receive it (namespace registration, forms) use JavaScript. Compiling is linear either way.
 */
export const patternProblem = async (pattern: string): Promise<string | undefined> => {
  // Loaded outside the check: a module that cannot be loaded is a failure, never a verdict on the pattern.
  const engine = await re2();
  try {
    compile(engine, pattern);
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : 'does not compile';
    return `${PATTERN_MESSAGE} in RE2 syntax (${reason})`;
  }
  try {
    new RegExp(pattern);
  } catch (error) {
    return `${PATTERN_MESSAGE} in JavaScript syntax too (${error instanceof Error ? error.message : 'does not compile'})`;
  }
  return undefined;
};

/** True when the pattern compiles. A whitespace-only pattern compiles (and is accepted by the spec). */
export const compilesAsRegExp = async (pattern: string): Promise<boolean> => (await patternProblem(pattern)) === undefined;

/** True when the value matches the stored pattern (a pattern that no longer compiles matches nothing). */
export const matchesPattern = async (pattern: string, value: string): Promise<boolean> => {
  const engine = await re2();
  try {
    return compile(engine, pattern).matcher(value).find();
  } catch {
    return false;
  }
};

/** Qualifier order: a non-negative 32-bit integer (the `integer` column's positive range). */
export const QUALIFIER_ORDER_MAX = 2_147_483_647;
