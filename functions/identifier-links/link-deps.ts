import type { Context } from 'hono';
import type { LinkDeps } from '../../core/identifier-links/link-repository.ts';
import type { AppEnv } from '../platform/env.ts';

/** What the link flows need from the request's services. */
export const linkDeps = (c: Context<AppEnv>): LinkDeps => {
  const { db, secretBox, fetcher, logger, settings } = c.get('services');
  return { db, box: secretBox, fetcher, logger, allowPrivateUrls: settings.allowPrivateUrls };
};
