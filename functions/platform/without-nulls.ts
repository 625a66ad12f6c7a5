/** Optional fields sent as explicit null, where a resource treats that as omitted. */
export const withoutNulls = <T extends Record<string, unknown>>(item: T) =>
  Object.fromEntries(Object.entries(item).filter(([, v]) => v !== null)) as { [K in keyof T]: Exclude<T[K], null> };
