import type { Hono } from 'hono';
import { dashboardCounts } from '../../core/console/dashboard-counts.ts';
import type { ConsoleEnv } from './console-env.ts';
import { renderPage } from './layout.tsx';

const Card = (props: { id: string; label: string; count: number; href?: string }) => (
  <li>
    <span class="count" id={props.id}>{props.count}</span>
    {props.href ? <a href={props.href}>{props.label}</a> : props.label}
  </li>
);

/**
 * GET /console: the dashboard. Each number links to its list: the batches' and the library's filtered by
 * the state or verification summary counted.
 */
export const registerDashboard = (app: Hono<ConsoleEnv>) =>
  app.get('/', async (c) => {
    const counts = await dashboardCounts(c.get('services').db, c.get('principal').tenantId);
    return renderPage(
      c,
      'Dashboard',
      <>
        <p>
          <a class="button" href="/console/issue">Issue a credential</a>
        </p>
        <h2>Credentials</h2>
        <ul class="cards">
          <Card id="issued-today" label="issued today" count={counts.issuedToday} href="/console/credentials" />
          <Card id="issued-week" label="issued this week" count={counts.issuedThisWeek} href="/console/credentials" />
        </ul>
        <h2>Batches</h2>
        <ul class="cards">
          <Card id="batches-running" label="running" count={counts.batchesRunning} href="/console/batches?state=RUNNING" />
          <Card id="batches-attention" label="need attention" count={counts.batchesNeedingAttention} href="/console/batches?state=NEEDS_ATTENTION" />
        </ul>
        <h2>Library and DIDs</h2>
        <ul class="cards">
          <Card id="library-pending" label="library items pending verification" count={counts.libraryPending} href="/console/library?status=pending" />
          <Card id="library-failed" label="library items that failed verification" count={counts.libraryFailed} href="/console/library?status=failed" />
          <Card id="dids-not-verified" label="DIDs not verified" count={counts.didsNotVerified} href="/console/dids" />
        </ul>
      </>,
    );
  });
