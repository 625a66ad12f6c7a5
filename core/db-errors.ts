/** The error and its causes (drizzle wraps the postgres.js error in `cause`), at most four deep. */
const causes = function* (error: unknown) {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) yield e;
};

/** PostgreSQL error class of a failed statement (postgres.js puts SQLSTATE on `code`, drizzle wraps it in `cause`). */
export const pgErrorCode = (error: unknown): string | undefined => {
  for (const e of causes(error)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
};

/** Name of the constraint a failed statement violated (postgres.js `constraint_name`), when PostgreSQL names one. */
export const violatedConstraint = (error: unknown): string | undefined => {
  for (const e of causes(error)) {
    const name = (e as { constraint_name?: unknown }).constraint_name;
    if (typeof name === 'string') return name;
  }
  return undefined;
};

export const isForeignKeyViolation = (error: unknown) => pgErrorCode(error) === '23503';
export const isUniqueViolation = (error: unknown) => pgErrorCode(error) === '23505';
