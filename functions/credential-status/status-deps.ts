import type { Context } from 'hono';
import type { StatusDeps } from '../../core/credential-status/change-status.ts';
import type { AppEnv } from '../platform/env.ts';
import { requestDeps } from '../platform/request-deps.ts';

/** The request's domain deps plus the status operation settings. */
export const statusDeps = (c: Context<AppEnv>): StatusDeps => ({ ...requestDeps(c), settings: c.get('services').settings.credentialStatus });
