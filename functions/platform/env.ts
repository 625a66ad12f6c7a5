import type { SecretBox } from '../../core/crypto/secret-box.ts';
import type { Fetcher } from '../../core/net/fetcher.ts';
import type { Logger } from '../../core/logging/logger.ts';
import type { WebSettings } from '../../core/settings/web-settings.ts';
import type { Database } from '../../db/client.ts';
import type { Authenticator } from './auth/authenticator.ts';

/** Everything a handler needs, handed over through the context (`c.get('services')`). */
export interface Services {
  db: Database;
  settings: WebSettings;
  logger: Logger;
  secretBox: SecretBox;
  authenticator: Authenticator;
  /** Outbound HTTP for user-supplied URLs (guarded: public addresses only unless allowed). */
  fetcher: Fetcher;
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
  };
}
