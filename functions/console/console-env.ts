import type { AppEnv } from '../platform/env.ts';

/** The console's request variables: the platform's, plus the page's CSP nonce and the session's CSRF token. */
export interface ConsoleEnv {
  Variables: AppEnv['Variables'] & {
    nonce: string;
    csrfToken: string;
  };
}
