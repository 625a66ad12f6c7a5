import { Hono } from 'hono';
import type { ConsoleEnv } from './console-env.ts';
import { consoleError } from './console-errors.tsx';
import { consoleHeaders } from './console-headers.ts';
import { requireSession } from './console-session.ts';
import { requireCsrfToken } from './csrf.ts';

export type PageGroup = (app: Hono<ConsoleEnv>) => unknown;

/**
 * A console app serving some of the console's pages: every response carries the console's headers (CSP with a
 * nonce); the `open` groups (the assets) need no session, every page does, and every state change the session's
 * CSRF token. Each console edge entry takes the page groups its bundle can hold (functions/console*\/edge.ts), and
 * imports only this module and its pages, so no other page's code lands in its bundle; the Node web process
 * takes them all (functions/console/index.ts).
 */
export const createConsoleShell = (groups: PageGroup[], open: PageGroup[] = []) => {
  const app = new Hono<ConsoleEnv>();
  app.use('*', consoleHeaders);
  for (const group of open) group(app);
  app.use('*', requireSession, requireCsrfToken);
  for (const group of groups) group(app);
  app.onError(consoleError);
  return app;
};
