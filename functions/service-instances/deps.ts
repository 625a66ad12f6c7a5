import type { Context } from 'hono';
import type { AppEnv } from '../platform/env.ts';

/** What the service-instance domain needs from the request's services. */
export const instanceDeps = (c: Context<AppEnv>) => {
  const { db, secretBox, fetcher, settings } = c.get('services');
  return { db, box: secretBox, fetcher, allowPrivateUrls: settings.allowPrivateUrls };
};
