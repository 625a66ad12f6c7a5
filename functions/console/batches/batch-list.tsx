import type { Context, Hono } from 'hono';
import { listTenantBatches, type BatchState } from '../../../core/console/batch-list.ts';
import { BATCH_STATES } from '../../../db/schema/index.ts';
import type { ConsoleEnv } from '../console-env.ts';
import { Actions, SelectField } from '../form-controls.tsx';
import { renderPage } from '../layout.tsx';

const PAGE_SIZE = 20;
const stateLabel = (state: string) => state.toLowerCase().replace('_', ' ');

/** GET /console/batches: the tenant's batches, newest first, filtered by state (the dashboard's counts open it), 20 a page. */
const renderBatchList = async (c: Context<ConsoleEnv>) => {
  const requested = c.req.query('state');
  const state = BATCH_STATES.find((s) => s === requested) as BatchState | undefined;
  const pageNumber = Math.max(1, Number.parseInt(c.req.query('page') ?? '1', 10) || 1);
  const { rows, total } = await listTenantBatches(c.get('services').db, c.get('principal').tenantId, { state }, { limit: PAGE_SIZE, offset: (pageNumber - 1) * PAGE_SIZE });
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const link = (p: number) => `/console/batches?${new URLSearchParams({ ...(state ? { state } : {}), page: String(p) })}`;
  return renderPage(
    c,
    'Batches',
    <>
      <p>
        <a class="button" href="/console/batches/new">Upload a batch</a>
      </p>
      <form method="get" action="/console/batches" class="filters">
        <SelectField name="state" label="State" value={state ?? ''} empty="Any" choices={BATCH_STATES.map((s) => ({ value: s, label: stateLabel(s) }))} />
        <Actions>
          <button type="submit" class="secondary">Filter</button>
        </Actions>
      </form>
      <div class="table-wrap">
        <table>
          <caption class="hint">{`${total} batch${total === 1 ? '' : 'es'}, newest first`}</caption>
          <thead>
            <tr>
              <th scope="col">Submitted</th>
              <th scope="col">State</th>
              <th scope="col">Items</th>
              <th scope="col">Issued</th>
              <th scope="col">Failed or unknown</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr>
                <td>
                  <a href={`/console/batches/${row.id}`}>{row.createdAt.toISOString().replace('T', ' ').slice(0, 16)}</a>
                </td>
                <td>{stateLabel(row.state)}</td>
                <td>{String(row.itemCount)}</td>
                <td>{String(row.issuedCount)}</td>
                <td>{String(row.failedCount + row.unknownCount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pages > 1 ? (
        <nav aria-label="Pages" class="pager">
          {pageNumber > 1 ? <a href={link(pageNumber - 1)}>Previous</a> : null}
          <span>{`Page ${pageNumber} of ${pages}`}</span>
          {pageNumber < pages ? <a href={link(pageNumber + 1)}>Next</a> : null}
        </nav>
      ) : null}
    </>,
  );
};

export const registerBatchList = (app: Hono<ConsoleEnv>) => app.get('/batches', renderBatchList);
