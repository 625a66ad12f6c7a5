/** Config fields that hold secrets: apiKey and anything named like a key, secret, password or token. */
const SENSITIVE = /(key|secret|password|token|credential)/i;
export const MASK = '***';

export const isSensitiveField = (name: string) => SENSITIVE.test(name);

/**
 * The config as responses and logs show it: sensitive values replaced by `***`, and with `hideBaseUrl`
 * (system instances, unless the operator sets SYSTEM_SERVICES_SHOW_BASE_URL=true) the internal
 * `baseUrl` too: tenants need not learn the addresses of our own services.
 */
export const maskConfig = (config: Record<string, unknown>, { hideBaseUrl = false } = {}): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(config).map(([k, v]) => [k, (isSensitiveField(k) || (hideBaseUrl && k === 'baseUrl')) && v !== undefined && v !== null ? MASK : v]),
  );

/**
 * A PATCH config merged over the stored one (shallow). A sensitive field sent back as `***` (as a
 * client got it from a GET) keeps the stored secret.
 */
export const mergeConfig = (stored: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> => {
  const merged = { ...stored };
  for (const [k, v] of Object.entries(patch)) {
    if (isSensitiveField(k) && v === MASK) continue;
    merged[k] = v;
  }
  return merged;
};
