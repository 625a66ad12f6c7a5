/**
 * A refusal in VCkit's body shape, `{ "error": "<code>: <detail>" }` (contract C.1/C.2), with a 4xx
 * status of our own: bad input is never a 500 here, and the `code:` prefix still tells clients why.
 */
export class VcError extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 406 | 409 | 413,
    readonly code: 'invalid_argument' | 'not_found' | 'unauthorized' | 'not_acceptable' | 'already_exists' | 'too_large',
    detail: string,
  ) {
    super(`${code}: ${detail}`);
  }
}

export const invalidArgument = (detail: string) => new VcError(400, 'invalid_argument', detail);
export const notFoundError = (detail: string) => new VcError(404, 'not_found', detail);

/** Reads a JSON object field as a non-blank string, or refuses naming the field. */
export const requiredText = (body: Record<string, unknown>, field: string, path = field): string => {
  const value = body[field];
  if (value === undefined || value === null) throw invalidArgument(`${path} is required`);
  if (typeof value !== 'string' || value.trim() === '') throw invalidArgument(`${path} must be a non-empty string`);
  return value;
};

export const asObject = (value: unknown, path: string): Record<string, unknown> => {
  if (value === undefined || value === null) throw invalidArgument(`${path} is required`);
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidArgument(`${path} must be a JSON object`);
  return value as Record<string, unknown>;
};
