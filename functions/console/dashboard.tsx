import type { Hono } from 'hono';
import type { ConsoleEnv } from './console-env.ts';
import { renderPage } from './layout.tsx';

/** GET /console: the dashboard. */
export const registerDashboard = (app: Hono<ConsoleEnv>) =>
  app.get('/', (c) =>
    renderPage(
      c,
      'Dashboard',
      <p>
        <a class="button" href="/console/issue">Issue a credential</a>
      </p>,
    ),
  );
