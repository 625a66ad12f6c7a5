import type { Context } from 'hono';
import { ApiError } from '../../core/errors.ts';
import type { LibraryDeps } from '../../core/library/register-external.ts';
import type { AppEnv } from '../platform/env.ts';
import { requestDeps } from '../platform/request-deps.ts';

/**
 * What the library's writes take from a request: the domain deps and the job queue (registration and
 * re-verification enqueue a generation in the transaction that records it). A runtime without a
 * queue (edge) cannot take these writes: 503, nothing written.
 */
export const libraryDeps = (c: Context<AppEnv>): LibraryDeps => {
  const jobs = c.get('services').jobs;
  if (!jobs) throw new ApiError(503, 'Verification jobs cannot be queued from this runtime.', 'JOB_QUEUE_UNAVAILABLE');
  return { ...requestDeps(c), jobs };
};
