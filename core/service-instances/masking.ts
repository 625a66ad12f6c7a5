/** Config fields that hold secrets: apiKey and anything named like a key, secret, password or token. */
const SENSITIVE = /(key|secret|password|token|credential)/i;
export const MASK = '***';

export const isSensitiveField = (name: string) => SENSITIVE.test(name);

/** The config as responses and logs show it: sensitive values replaced by `***`. */
export const maskConfig = (config: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(config).map(([k, v]) => [k, isSensitiveField(k) && v !== undefined && v !== null ? MASK : v]));

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
