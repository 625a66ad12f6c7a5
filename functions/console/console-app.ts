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
 * A console app serving some of the console's pages: every response carries the console's headers (CSP with a
 * nonce); the assets are public (when `assets`), every page needs a session, every state change the session's
 * CSRF token. The edge entries each take the page groups their bundle can hold (functions/console/edge.ts,
 * functions/console-trust/edge.ts); the Node web process takes them all.
 */
export const createConsoleShell = (groups: PageGroup[], options: { assets: boolean } = { assets: true }) => {
  const app = new Hono<ConsoleEnv>();
  app.use('*', consoleHeaders);
  if (options.assets) registerGetAsset(app);
  app.use('*', requireSession, requireCsrfToken);
  for (const group of groups) group(app);
  app.onError(consoleError);
  return app;
};

const registerListedMasterPages: PageGroup = (app) => {
  for (const kind of [ORGANISATIONS, FACILITIES, PRODUCTS]) registerMasterPages(app, kind, { searchable: true });
};

/**
 * The console's own edge pages (dashboard, credentials, organisations, facilities, products) and the assets;
 * `more` adds page groups served elsewhere at the edge or only by the Node web process.
 */
export const createConsoleApp = (more: PageGroup[] = []) => createConsoleShell([registerDashboard, ...more, registerCredentialPages, registerListedMasterPages]);
