import type { Context } from 'hono';
import { domainDeps } from '../../core/deps.ts';
import type { AppEnv } from './env.ts';

/**
 * What every domain flow takes from a request: the process's dependencies, shaped once by `core/deps.ts`
 * (database, secret box, guarded fetcher, logger, the private-URL setting), and the request's correlation id.
 */
export const requestDeps = (c: Context<AppEnv>) => ({ ...domainDeps(c.get('services')), correlationId: c.get('correlationId') });
