/**
 * The validation-pattern rules of schemes and qualifiers, in one place for the API and the seed file.
 * A pattern is a JavaScript RegExp source compiled without flags; it is applied as written (not
 * anchored for you), so `^\d{14}$` means "exactly 14 digits".
 */

/** True when the pattern compiles. A whitespace-only pattern compiles (and is accepted by the spec). */
export const compilesAsRegExp = (pattern: string): boolean => {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
};

/** True when the value matches the stored pattern (a pattern that no longer compiles matches nothing). */
export const matchesPattern = (pattern: string, value: string): boolean => {
  try {
    return new RegExp(pattern).test(value);
  } catch {
    return false;
  }
};

export const PATTERN_MESSAGE = 'must be a valid regular expression';

/** Qualifier order: a non-negative 32-bit integer (the `integer` column's positive range). */
export const QUALIFIER_ORDER_MAX = 2_147_483_647;
