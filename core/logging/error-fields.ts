/**
 * What a log line says about a thrown value: its message and, when it has one, its code (a
 * PostgreSQL SQLSTATE, a Node `ECONNREFUSED`). `String(error)` on a value that is not an Error (pg-boss
 * re-emits some driver errors as plain objects) prints `[object Object]`; this never does. An
 * AggregateError (a connection to several addresses) names its parts; a cause is followed once.
 */
export type ErrorFields = {
  error: string;
  code?: string;
};

const MAX_CHARS = 500;

const messageOf = (value: unknown, depth: number): string => {
  if (value instanceof AggregateError && value.errors.length > 0 && depth < 2) {
    const parts = value.errors.map((e) => messageOf(e, depth + 1));
    return `${value.message || 'several errors'}: ${[...new Set(parts)].join('; ')}`;
  }
  if (value !== null && typeof value === 'object') {
    const message = (value as { message?: unknown }).message;
    if (typeof message === 'string' && message !== '') {
      const cause = (value as { cause?: unknown }).cause;
      return cause !== undefined && depth < 1 ? `${message} (cause: ${messageOf(cause, depth + 1)})` : message;
    }
    try {
      const json = JSON.stringify(value);
      if (json !== undefined && json !== '{}') return json;
    } catch {}
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === 'string' && name !== 'Object' ? name : 'an error without a message';
  }
  return String(value);
};

const codeOf = (value: unknown): string | undefined => {
  if (value === null || typeof value !== 'object') return undefined;
  const code = (value as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') return String(code);
  if (value instanceof AggregateError) return value.errors.map(codeOf).find((c) => c !== undefined);
  return undefined;
};

export const errorFields = (value: unknown): ErrorFields => {
  const message = messageOf(value, 0);
  const code = codeOf(value);
  return { error: message.length > MAX_CHARS ? `${message.slice(0, MAX_CHARS)}…` : message, ...(code !== undefined ? { code } : {}) };
};
