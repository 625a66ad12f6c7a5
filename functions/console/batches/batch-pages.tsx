import type { Context, Hono } from 'hono';
import { batchExpired, batchNotFound, cancelBatch } from '../../../core/batches/cancel-batch.ts';
import { findTenantBatch } from '../../../core/batches/batch-repository.ts';
import { inOneSnapshot, projectBatch, type BatchProjection } from '../../../core/batches/batch-projection.ts';
import { submitBatch } from '../../../core/batches/submit-batch.ts';
import { PayloadInputError } from '../../../core/console/payload-from-master-data.ts';
import { parseIssuanceRequest } from '../../../core/credentials/issuance-request.ts';
import { listDataModels } from '../../../core/data-models/data-model-repository.ts';
import { ApiError, badRequest } from '../../../core/errors.ts';
import { listProducts } from '../../../core/products/product-repository.ts';
import { canBuildPayload } from '../../../core/console/payload-from-master-data.ts';
import { listDids } from '../../../core/dids/did-repository.ts';
import type { ConsoleEnv } from '../console-env.ts';
import { Actions, FormProblem, SelectField, type FieldErrors } from '../form-controls.tsx';
import { readForm } from '../form-fields.ts';
import { CsrfField, renderPage } from '../layout.tsx';
import { ListTable } from '../list-table.tsx';
import { buildFromChoices } from '../issue/issue-choices.ts';
import { registerBatchList } from './batch-list.tsx';
import { BATCH_COLUMNS, batchTemplateCsv, readBatchRows } from './batch-rows.ts';

const tenantOf = (c: Context<ConsoleEnv>) => c.get('principal').tenantId;
const ACTIVE = new Set(['QUEUED', 'RUNNING']);
const ITEMS_SHOWN = 200;

/** Counts, a progress bar and the items' outcomes; while the batch runs, htmx fetches it again every 2 s. */
export const BatchProgress = (props: { view: BatchProjection; token: string }) => {
  const { view } = props;
  const { counts } = view;
  const done = counts.issued + counts.failed + counts.cancelled + counts.unknown;
  const active = ACTIVE.has(view.state);
  const attention = view.items.filter((i) => i.state === 'OUTCOME_UNKNOWN' || i.state === 'FAILED');
  return (
    <div id="batch-progress" {...(active ? { 'hx-get': `/console/batches/${view.id}/progress`, 'hx-trigger': 'every 2s', 'hx-swap': 'outerHTML' } : {})}>
      <p>
        State: <strong id="batch-state">{view.state}</strong>
      </p>
      <label for="batch-bar">{`${done} of ${counts.total} items settled`}</label>
      <progress id="batch-bar" max={counts.total} value={done}>{`${done} of ${counts.total}`}</progress>
      <dl class="facts" id="batch-counts">
        <dt>Issued</dt>
        <dd>{counts.issued}</dd>
        <dt>Queued</dt>
        <dd>{counts.queued + counts.processing}</dd>
        <dt>Failed</dt>
        <dd>{counts.failed}</dd>
        <dt>Outcome unknown</dt>
        <dd>{counts.unknown}</dd>
        <dt>Cancelled</dt>
        <dd>{counts.cancelled}</dd>
      </dl>
      {view.cancelRequestedAt && active ? <p class="notice warn" id="cancel-requested">Cancellation requested: items not issued yet will be cancelled.</p> : null}
      {active && !view.cancelRequestedAt ? (
        <form method="post" action={`/console/batches/${view.id}/cancel`}>
          <CsrfField token={props.token} />
          <button type="submit" class="danger">Cancel the batch</button>
        </form>
      ) : null}
      {attention.length > 0 ? (
        <section aria-labelledby="attention-title">
          <h2 id="attention-title">Items needing attention</h2>
          <ul>
            {attention.map((item) => (
              <li>
                {`Item ${item.index}${item.reference ? ` (${item.reference})` : ''}: ${item.error?.message ?? item.state}`}
                {item.state === 'OUTCOME_UNKNOWN' ? (
                  <p class="hint">{`An operator checks it with css-operator inspect-item ${view.id} ${item.index}, then records what happened with resolve-item (issued or failed).`}</p>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <ListTable
        caption={`Items (the first ${Math.min(ITEMS_SHOWN, view.items.length)})`}
        columns={[
          { label: 'Item', cell: (item) => item.index },
          { label: 'Reference', cell: (item) => item.reference ?? '' },
          { label: 'Outcome', cell: (item) => (item.credentialId ? <a href={`/console/credentials/${item.credentialId}`}>{item.state}</a> : item.error ? `${item.state}: ${item.error.message}` : item.state) },
        ]}
        rows={view.items.slice(0, ITEMS_SHOWN)}
      />
    </div>
  );
};

const readView = (c: Context<ConsoleEnv>, id: string) =>
  inOneSnapshot(c.get('services').db, async (tx) => {
    const batch = await findTenantBatch(tx, tenantOf(c), id);
    if (!batch) throw batchNotFound();
    if (batch.state === 'EXPIRED') throw await batchExpired(tx, batch);
    return projectBatch(tx, batch);
  });

const renderUpload = async (c: Context<ConsoleEnv>, errors?: FieldErrors, status: 200 | 400 = 200) => {
  const { db } = c.get('services');
  const [models, dids] = await Promise.all([listDataModels(db, tenantOf(c), {}, { limit: 200, offset: 0 }), listDids(db, tenantOf(c), {}, { limit: 100, offset: 0 })]);
  // The batch columns are the product passport's (batch-rows.ts): its versions only.
  const buildable = models.rows.filter((m) => m.credentialType === 'DigitalProductPassport' && canBuildPayload(m.credentialType, m.version));
  return renderPage(
    c,
    'Issue a batch',
    <>
      <p>
        Upload a CSV (or JSON array) with the columns <code>{BATCH_COLUMNS.join(', ')}</code>: one credential per row, each naming its
        records by id. <a href="/console/batches/template.csv">Download the column template</a> (one row per product).
      </p>
      <form method="post" action="/console/batches" enctype="multipart/form-data">
        <CsrfField token={c.get('csrfToken')} />
        <input type="hidden" name="idempotencyKey" value={crypto.randomUUID()} />
        <FormProblem errors={errors} />
        <SelectField name="dataModelId" label="Data model" required errors={errors} choices={buildable.map((m) => ({ value: m.id, label: `${m.name} (${m.credentialType} ${m.version})` }))} />
        <SelectField name="issuerDid" label="Signing DID" required errors={errors} value={(dids.rows.find((d) => d.isDefault) ?? dids.rows[0])?.id} choices={dids.rows.map((d) => ({ value: d.id, label: `${d.name ?? d.alias ?? d.did} — ${d.did}` }))} />
        <div class="field">
          <label for="file">File</label>
          {errors?.file ? <p class="field-error" id="file-error">{errors.file}</p> : null}
          <input id="file" name="file" type="file" accept=".csv,.json,text/csv,application/json" required aria-invalid={errors?.file ? 'true' : undefined} aria-describedby={errors?.file ? 'file-error' : undefined} />
        </div>
        <Actions>
          <button type="submit">Submit the batch</button>
        </Actions>
      </form>
    </>,
    status,
  );
};

/** Builds every row's payload first: one bad row refuses the whole file, naming the row and field. */
const itemsOf = async (c: Context<ConsoleEnv>, fields: Record<string, string>, rows: Record<string, string>[]) => {
  const services = c.get('services');
  const items = [];
  for (const [i, row] of rows.entries()) {
    try {
      const built = await buildFromChoices(services, tenantOf(c), { ...row, dataModelId: fields.dataModelId ?? '', issuerDid: fields.issuerDid ?? '' });
      items.push({
        credentialType: built.model.credentialType,
        version: built.model.version,
        credentialPayload: built.payload,
        ...(row.reference ? { reference: row.reference } : {}),
      });
    } catch (error) {
      if (error instanceof PayloadInputError || (error instanceof ApiError && error.status < 500)) throw badRequest(`file: row ${i + 1}: ${error.message}`);
      throw error;
    }
  }
  return items;
};

/** Batches: upload with its template, live progress, cancel, the items needing attention (Node only: the job queue). */
export const registerBatchPages = (app: Hono<ConsoleEnv>) => {
  registerBatchList(app);
  app.get('/batches/new', (c) => renderUpload(c));

  app.get('/batches/template.csv', async (c) => {
    const { rows } = await listProducts(c.get('services').db, tenantOf(c), {}, { limit: 100, offset: 0 });
    return c.body(batchTemplateCsv(rows), 200, { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="batch-template.csv"' });
  });

  app.post('/batches', async (c) => {
    const services = c.get('services');
    const fields = await readForm(c);
    const file = (await c.req.parseBody()).file;
    if (!(file instanceof File) || file.size === 0) return renderUpload(c, { file: 'choose a CSV or JSON file' }, 400);
    let items;
    try {
      items = await itemsOf(c, fields, readBatchRows(file.name, await file.text()));
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) return renderUpload(c, { file: error.message.replace(/^file: /, '') }, 400);
      throw error;
    }
    if (!services.jobs) throw new Error('This runtime has no job queue: batches are accepted by the Node web process only');
    const { batchId } = await submitBatch(
      { db: services.db, box: services.secretBox, jobs: services.jobs, settings: { ...services.settings.batches, maxItemBytes: services.settings.maxRequestBodyBytes } },
      {
        tenantId: tenantOf(c),
        idempotencyKey: fields.idempotencyKey ?? crypto.randomUUID(),
        correlationId: c.get('correlationId'),
        body: { items },
        validateItem: (item, prefix) => void parseIssuanceRequest(item, services.settings.issuance, prefix),
      },
    );
    return c.redirect(`/console/batches/${batchId}`, 303);
  });

  app.get('/batches/:id', async (c) => {
    const view = await readView(c, c.req.param('id'));
    return renderPage(c, 'Batch', <BatchProgress view={view} token={c.get('csrfToken')} />);
  });

  app.get('/batches/:id/progress', async (c) => {
    const view = await readView(c, c.req.param('id'));
    return c.html(<BatchProgress view={view} token={c.get('csrfToken')} />);
  });

  app.post('/batches/:id/cancel', async (c) => {
    await cancelBatch(c.get('services').db, tenantOf(c), c.req.param('id'));
    return c.redirect(`/console/batches/${encodeURIComponent(c.req.param('id'))}`, 303);
  });
};
