/**
 * LOG_REDACT_PATHS: comma-separated dot paths of log-line fields whose values are replaced by
 * `[Redacted]` (beside the built-in masking of secret-looking names). A segment is a field name or
 * `*` (any field at that level), e.g. `request.email,items.*.reference`.
 */
export type RedactPath = readonly string[];

const SEGMENT = /^(\*|[A-Za-z_$][A-Za-z0-9_$-]*)$/;
export const REDACTED = '[Redacted]';

/** The paths of a LOG_REDACT_PATHS value, or the first invalid path as an error message. */
export const parseRedactPaths = (raw: string | undefined): { paths: RedactPath[] } | { invalid: string } => {
  if (raw === undefined || raw.trim() === '') return { paths: [] };
  const paths: RedactPath[] = [];
  for (const entry of raw.split(',')) {
    const text = entry.trim();
    const segments = text.split('.');
    if (text === '' || !segments.every((s) => SEGMENT.test(s))) {
      return { invalid: `LOG_REDACT_PATHS: "${text}" is not a path of field names or * separated by dots` };
    }
    paths.push(segments);
  }
  return { paths };
};

/** A copy of `value` with every field at one of `paths` replaced by `[Redacted]`. */
export const redactPaths = (value: unknown, paths: readonly RedactPath[]): unknown => {
  if (paths.length === 0 || value === null || typeof value !== 'object') return value;
  const here = paths.filter((p) => p.length === 1);
  const deeper = paths.filter((p) => p.length > 1);
  const matches = (path: RedactPath, key: string) => path[0] === '*' || path[0] === key;
  const visit = (key: string, child: unknown): unknown => {
    if (here.some((p) => matches(p, key))) return REDACTED;
    const rest = deeper.filter((p) => matches(p, key)).map((p) => p.slice(1));
    return rest.length > 0 ? redactPaths(child, rest) : child;
  };
  if (Array.isArray(value)) return value.map((child, i) => visit(String(i), child));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, visit(k, v)]));
};
