import type { Deps } from '../../core/deps.ts';
import type { VcInstance } from '../../core/dids/vc-instance.ts';
import type { JobQueue } from '../../core/jobs/job-queue.ts';
import type { WebSettings } from '../../core/settings/web-settings.ts';
import type { Authenticator } from './auth/authenticator.ts';

/** Everything a handler needs, handed over through the context (`c.get('services')`): the core deps plus the authenticator. */
export interface Services extends Deps<WebSettings> {
  authenticator: Authenticator;
  /** The producer side of the job queues: plain SQL in the caller's transaction (core/jobs/sql-job-queue.ts); at the edge only in groups that enqueue. */
  jobs?: JobQueue;
}

/** The authenticated caller, resolved to exactly one tenant. */
export interface Principal {
  userId: string;
  tenantId: string;
  subject: string;
  via: 'bearer' | 'session';
}

export interface AppEnv {
  Variables: {
    services: Services;
    principal: Principal;
    correlationId: string;
    /** The system VC instance read with a public verification's admission (credential-verification/bounds.ts), for its verification. */
    admittedSystemVc?: { instance: VcInstance | undefined };
  };
}
