import type { Context, Hono } from 'hono';
import { listTenantBatches, type BatchState } from '../../../core/console/batch-list.ts';
import { BATCH_STATES } from '../../../db/schema/index.ts';
import type { ConsoleEnv } from '../console-env.ts';
import { Actions, SelectField } from '../form-controls.tsx';
import { renderPage } from '../layout.tsx';
import { ListTable, pageCount, pageOf, Pager } from '../list-table.tsx';

const stateLabel = (state: string) => state.toLowerCase().replace('_', ' ');

/** GET /console/batches: the tenant's batches, newest first, filtered by state (the dashboard's counts open it), 20 a page. */
const renderBatchList = async (c: Context<ConsoleEnv>) => {
  const requested = c.req.query('state');
  const state = BATCH_STATES.find((s) => s === requested) as BatchState | undefined;
  const { page: pageNumber, window } = pageOf(c);
  const { rows, total } = await listTenantBatches(c.get('services').db, c.get('principal').tenantId, { state }, window);
  const pages = pageCount(total);
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
      <ListTable
        caption={`${total} batch${total === 1 ? '' : 'es'}, newest first`}
        columns={[
          { label: 'Submitted', cell: (row) => <a href={`/console/batches/${row.id}`}>{row.createdAt.toISOString().replace('T', ' ').slice(0, 16)}</a> },
          { label: 'State', cell: (row) => stateLabel(row.state) },
          { label: 'Items', cell: (row) => String(row.itemCount) },
          { label: 'Issued', cell: (row) => String(row.issuedCount) },
          { label: 'Failed or unknown', cell: (row) => String(row.failedCount + row.unknownCount) },
        ]}
        rows={rows}
      />
      <Pager page={pageNumber} pages={pages} link={link} />
    </>,
  );
};

export const registerBatchList = (app: Hono<ConsoleEnv>) => app.get('/batches', renderBatchList);
