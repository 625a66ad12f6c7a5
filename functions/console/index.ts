import { Hono } from 'hono';
import type { ConsoleEnv } from './console-env.ts';
import { consoleError, consoleNotFound } from './console-errors.tsx';
import { consoleHeaders } from './console-headers.ts';
import { requireSession } from './console-session.ts';
import { requireCsrfToken } from './csrf.ts';
import { registerGetAsset } from './get-asset.ts';
import { registerDashboard } from './dashboard.tsx';
import { registerIssuePages } from './issue/issue-pages.tsx';
import { registerCredentialPages } from './credentials/credential-pages.tsx';
import { FACILITIES, IDENTIFIERS, ORGANISATIONS, PRODUCTS, REGISTRARS, SCHEMES } from './master-data/master-kinds.ts';
import { registerMasterPages } from './master-data/master-pages.tsx';

/**
 * /console: the issuer console, server-rendered pages over the same core functions as the API, under the
 * signed-in user's tenant. Every response carries the console's headers (CSP with a nonce); the assets are
 * public, every page needs a session, every state change the session's CSRF token.
 */
export const consoleApp = new Hono<ConsoleEnv>();
consoleApp.use('*', consoleHeaders);
registerGetAsset(consoleApp);
consoleApp.use('*', requireSession, requireCsrfToken);
registerDashboard(consoleApp);
registerIssuePages(consoleApp);
registerCredentialPages(consoleApp);
for (const kind of [ORGANISATIONS, FACILITIES, PRODUCTS]) registerMasterPages(consoleApp, kind, { searchable: true });
for (const kind of [IDENTIFIERS, REGISTRARS, SCHEMES]) registerMasterPages(consoleApp, kind, { searchable: false });
consoleApp.onError(consoleError);
consoleApp.notFound(consoleNotFound);
