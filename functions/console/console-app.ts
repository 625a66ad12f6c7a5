import { Hono } from 'hono';
import type { ConsoleEnv } from './console-env.ts';
import { consoleError } from './console-errors.tsx';
import { consoleHeaders } from './console-headers.ts';
import { requireSession } from './console-session.ts';
import { requireCsrfToken } from './csrf.ts';
import { registerCredentialPages } from './credentials/credential-pages.tsx';
import { registerDashboard } from './dashboard.tsx';
import { registerGetAsset } from './get-asset.ts';
import { FACILITIES, ORGANISATIONS, PRODUCTS } from './master-data/master-kinds.ts';
import { registerMasterPages } from './master-data/master-pages.tsx';

export type PageGroup = (app: Hono<ConsoleEnv>) => unknown;

/**
 * The console's pages: every response carries the console's headers (CSP with a nonce); the assets are
 * public, every page needs a session, every state change the session's CSRF token. `more` adds page groups
 * that only the Node web process serves: issuance (JSON-LD expansion needs Node, as for POST /credentials), batches
 * (the job queue) and the
 * identifier, scheme and registrar pages (RE2 pattern checks, too large for the console's edge bundle).
 */
export const createConsoleApp = (more: PageGroup[] = []) => {
  const app = new Hono<ConsoleEnv>();
  app.use('*', consoleHeaders);
  registerGetAsset(app);
  app.use('*', requireSession, requireCsrfToken);
  registerDashboard(app);
  for (const group of more) group(app);
  registerCredentialPages(app);
  for (const kind of [ORGANISATIONS, FACILITIES, PRODUCTS]) registerMasterPages(app, kind, { searchable: true });
  app.onError(consoleError);
  return app;
};
