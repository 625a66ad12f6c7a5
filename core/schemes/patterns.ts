import { RE2JS } from 're2js';

/**
 * The validation-pattern rules of schemes and qualifiers, in one place for the API and the seed file.
 * Tenants choose these patterns, so they run on RE2 (re2js: linear time, no backtracking, also on edge
 * runtimes): `^(a+)+$` cannot stall the process. A pattern is RE2 syntax compiled without flags and
 * applied as written (not anchored for you), so `^\d{14}$` means "exactly 14 digits". RE2 has no
 * lookaround, no backreferences and no `\u` escapes (write `\x{e9}`); repeat counts stop at 1000.
 */

const compiled = new Map<string, RE2JS>();
const COMPILED_CACHE_SIZE = 500;

const compile = (pattern: string): RE2JS => {
  let re = compiled.get(pattern);
  if (!re) {
    re = RE2JS.compile(pattern);
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
export const patternProblem = (pattern: string): string | undefined => {
  try {
    compile(pattern);
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
export const compilesAsRegExp = (pattern: string): boolean => patternProblem(pattern) === undefined;

/** True when the value matches the stored pattern (a pattern that no longer compiles matches nothing). */
export const matchesPattern = (pattern: string, value: string): boolean => {
  try {
    return compile(pattern).matcher(value).find();
  } catch {
    return false;
  }
};

/** Qualifier order: a non-negative 32-bit integer (the `integer` column's positive range). */
export const QUALIFIER_ORDER_MAX = 2_147_483_647;
