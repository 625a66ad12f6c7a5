import type { Context } from 'hono';
import type { DidDeps } from '../../core/dids/did-operations.ts';
import type { AppEnv } from '../platform/env.ts';

/** What the DID operations need from a request's services. */
export const didDeps = (c: Context<AppEnv>): DidDeps => {
  const { db, secretBox, fetcher, logger } = c.get('services');
  return { db, box: secretBox, fetcher, logger };
};
