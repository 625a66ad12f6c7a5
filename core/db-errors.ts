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

/** SQLSTATE classes that say the connection or the server failed, not the statement: whether it took effect is not known. */
const OUTCOME_UNSURE_CLASSES = new Set(['08', '57', '58', 'XX']);

/**
 * True when PostgreSQL itself refused the statement (or the transaction's COMMIT) with an error of the statement
 * (a constraint, a type, a serialization failure): nothing of it was committed. A lost connection, a server
 * shutting down or an internal error says nothing certain, and neither does an error that is not PostgreSQL's.
 */
export const refusedByDatabase = (error: unknown): boolean => {
  const code = pgErrorCode(error);
  return code !== undefined && !OUTCOME_UNSURE_CLASSES.has(code.slice(0, 2));
};

export const isForeignKeyViolation = (error: unknown) => pgErrorCode(error) === '23503';
export const isUniqueViolation = (error: unknown) => pgErrorCode(error) === '23505';

/** Longest error text a log line carries: drizzle's message embeds the statement and all its parameters. */
export const LOGGED_ERROR_MAX_CHARS = 500;
const clip = (text: string) =>
  text.length > LOGGED_ERROR_MAX_CHARS ? `${text.slice(0, LOGGED_ERROR_MAX_CHARS)}… [${text.length - LOGGED_ERROR_MAX_CHARS} more characters]` : text;

/**
 * What a log line says about an unexpected error: the PostgreSQL code and message when a statement
 * failed, the error text and stack clipped (never the full statement parameters, which are user data).
 */
export const describeUnexpectedError = (error: unknown): Record<string, unknown> => {
  const code = pgErrorCode(error);
  const pg = code ? [...causes(error)].find((e) => (e as { code?: unknown }).code === code) : undefined;
  const stack = error instanceof Error && error.stack ? error.stack.split('\n').filter((line) => /^\s+at /.test(line)).slice(0, 12).join('\n') : undefined;
  return {
    error: clip(String(error)),
    ...(code ? { pgCode: code, pgMessage: clip(String((pg as { message?: unknown }).message ?? '')) } : {}),
    ...(stack ? { stack } : {}),
  };
};
