import type { Context, Hono } from 'hono';
import { changeStatus } from '../../../core/credential-status/change-status.ts';
import { findCredential, listCredentials } from '../../../core/credentials/credential-repository.ts';
import { deleteIssuedCredential } from '../../../core/credentials/delete-credential.ts';
import { domainDeps } from '../../../core/deps.ts';
import { badRequest, notFound } from '../../../core/errors.ts';
import { qrCodeSvg } from '../../../core/qr/qr-code.ts';
import { toCredentialListItem, toCredentialResponse } from '../../credentials/schemas.ts';
import type { ConsoleEnv } from '../console-env.ts';
import { readForm } from '../form-fields.ts';
import { CsrfField, renderPage } from '../layout.tsx';
import { ListTable, pageCount, pageOf, Pager } from '../list-table.tsx';
import { CredentialFacts, statusWords, type CredentialView } from './credential-view.tsx';

const tenantOf = (c: Context<ConsoleEnv>) => c.get('principal').tenantId;

/** The status changes a person can make from an entry's current value (revocation cannot be undone). */
const STATUS_ACTIONS = [
  { purpose: 'revocation', value: true, label: 'Revoke', when: (set: boolean) => !set, danger: true },
  { purpose: 'suspension', value: true, label: 'Suspend', when: (set: boolean) => !set, danger: false },
  { purpose: 'suspension', value: false, label: 'Reinstate', when: (set: boolean) => set, danger: false },
] as const;

const StatusForms = (props: { view: CredentialView; token: string }) => {
  const revoked = props.view.statusEntries.some((e) => e.statusPurpose === 'revocation' && e.value);
  return (
    <section aria-labelledby="status-title">
      <h2 id="status-title">Status</h2>
      {revoked ? <p>Revoked credentials stay revoked.</p> : null}
      <div class="form-actions">
        {props.view.statusEntries.flatMap((entry) =>
          revoked
            ? []
            : STATUS_ACTIONS.filter((a) => a.purpose === entry.statusPurpose && a.when(entry.value ?? false)).map((action) => (
                <form method="post" action={`/console/credentials/${props.view.id}/status`}>
                  <CsrfField token={props.token} />
                  <input type="hidden" name="purpose" value={action.purpose} />
                  <input type="hidden" name="value" value={String(action.value)} />
                  {/* The version this page showed: a change made meanwhile elsewhere is refused (409), not overwritten. */}
                  <input type="hidden" name="version" value={String(entry.version)} />
                  <button type="submit" class={action.danger ? 'danger' : 'secondary'}>{action.label}</button>
                </form>
              )),
        )}
      </div>
      <h2>Delete the record</h2>
      <p class="hint">Removes this service's record and stored copy; it does not revoke the credential.</p>
      <form method="post" action={`/console/credentials/${props.view.id}/delete`}>
        <CsrfField token={props.token} />
        <button type="submit" class="danger">Delete the record</button>
      </form>
    </section>
  );
};

const viewOf = async (c: Context<ConsoleEnv>, id: string) => {
  const { db, secretBox, settings } = c.get('services');
  const row = await findCredential(db, tenantOf(c), id);
  if (!row) throw notFound('Credential');
  const key = row.credential.wrappedDecryptionKey ? await secretBox.decrypt(row.credential.wrappedDecryptionKey) : null;
  return toCredentialResponse(row, key, settings.appUrl);
};

/** The credentials list with the API's filters, one credential's page, its status changes and delete. */
export const registerCredentialPages = (app: Hono<ConsoleEnv>) => {
  app.get('/credentials', async (c) => {
    const credentialType = c.req.query('credentialType') || undefined;
    const published = c.req.query('isPublished');
    const { page, window } = pageOf(c);
    const filter = { credentialType, isPublished: published === 'true' ? true : published === 'false' ? false : undefined };
    const { rows, total } = await listCredentials(c.get('services').db, tenantOf(c), filter, window);
    const items = rows.map((r) => ({ ...toCredentialListItem(r), verifyUrl: '', decryptionKey: null }));
    const pages = pageCount(total);
    const query = (p: number) => new URLSearchParams({ ...(credentialType ? { credentialType } : {}), ...(published ? { isPublished: published } : {}), page: String(p) });
    return renderPage(
      c,
      'Credentials',
      <>
        {c.req.query('deleted') ? <p class="notice good" role="status">The record was deleted.</p> : null}
        <form method="get" action="/console/credentials" class="search" role="search">
          <div>
            <label for="credentialType">Type</label>
            <input id="credentialType" name="credentialType" value={credentialType ?? ''} />
          </div>
          <div>
            <label for="isPublished">Published</label>
            <select id="isPublished" name="isPublished">
              <option value="">Any</option>
              <option value="true" selected={published === 'true'}>Published</option>
              <option value="false" selected={published === 'false'}>Not published</option>
            </select>
          </div>
          <button type="submit" class="secondary">Filter</button>
        </form>
        <p id="list-count">{`${total} ${total === 1 ? 'credential' : 'credentials'}`}</p>
        <ListTable
          caption={`Credentials, newest first (page ${page} of ${pages})`}
          columns={[
            { label: 'Name', cell: (item) => <a href={`/console/credentials/${item.id}`}>{item.name ?? item.id}</a> },
            { label: 'Type', cell: (item) => `${item.credentialType} ${item.version}` },
            { label: 'Status', cell: (item) => statusWords(item as CredentialView) },
            { label: 'Issued', cell: (item) => item.createdAt.slice(0, 16).replace('T', ' ') },
          ]}
          rows={items}
        />
        <Pager page={page} pages={pages} link={(p) => `/console/credentials?${query(p)}`} />
      </>,
    );
  });

  app.get('/credentials/:id', async (c) => {
    const view = await viewOf(c, c.req.param('id'));
    const changed = c.req.query('changed');
    return renderPage(
      c,
      view.name ?? 'Credential',
      <>
        {changed ? <p class="notice good" role="status">{`Status changed: ${changed}.`}</p> : null}
        <CredentialFacts view={view} qrSvg={await qrCodeSvg(view.verifyUrl, { size: 256 })} />
        <StatusForms view={view} token={c.get('csrfToken')} />
      </>,
    );
  });

  app.post('/credentials/:id/status', async (c) => {
    const fields = await readForm(c);
    const version = Number(fields.version);
    if (!Number.isSafeInteger(version) || version < 0) throw badRequest('version: must be a whole number');
    const value = fields.value === 'true';
    const services = c.get('services');
    await changeStatus(
      { ...domainDeps(services), correlationId: c.get('correlationId'), settings: services.settings.credentialStatus },
      { tenantId: tenantOf(c), credentialId: c.req.param('id'), purpose: fields.purpose ?? '', value, ifVersion: version },
    );
    const words = fields.purpose === 'revocation' ? 'revoked' : value ? 'suspended' : 'reinstated';
    return c.redirect(`/console/credentials/${encodeURIComponent(c.req.param('id'))}?changed=${words}`, 303);
  });

  app.post('/credentials/:id/delete', async (c) => {
    await deleteIssuedCredential({ ...domainDeps(c.get('services')), correlationId: c.get('correlationId') }, tenantOf(c), c.req.param('id'));
    return c.redirect('/console/credentials?deleted=1', 303);
  });
};
