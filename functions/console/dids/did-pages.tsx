import type { Context, Hono } from 'hono';
import { domainDeps } from '../../../core/deps.ts';
import { createDid, didDocument, importDid, verifyDid } from '../../../core/dids/did-operations.ts';
import { findVisibleDid, listDids, updateDid, type DidRow } from '../../../core/dids/did-repository.ts';
import type { CheckOutcome } from '../../../core/dids/verification-checks.ts';
import { ApiError, notFound } from '../../../core/errors.ts';
import { listServiceInstances } from '../../../core/service-instances/service-instance-repository.ts';
import { CreateDidBody, ImportDidBody } from '../../dids/schemas.ts';
import type { ConsoleEnv } from '../console-env.ts';
import { Actions, FormProblem, SelectField, TextField, type FieldErrors } from '../form-controls.tsx';
import { fieldOfMessage, optional, readForm } from '../form-fields.ts';
import { CsrfField, renderPage } from '../layout.tsx';
import { ListTable } from '../list-table.tsx';

const tenantOf = (c: Context<ConsoleEnv>) => c.get('principal').tenantId;
const depsOf = (c: Context<ConsoleEnv>) => ({ ...domainDeps(c.get('services')), correlationId: c.get('correlationId') });

/** The import form's fields (its name field is `importedName`, apart from the create form's `name`). */
const IMPORT_FIELDS: Record<string, string> = { did: 'did', keyId: 'keyId', serviceInstanceId: 'serviceInstanceId', name: 'importedName' };

const renderList = async (
  c: Context<ConsoleEnv>,
  values: Record<string, string> = {},
  errors?: FieldErrors,
  status: 200 | 400 | 403 | 404 | 409 = 200,
  importErrors?: FieldErrors,
) => {
  const [{ rows }, instances] = await Promise.all([
    listDids(c.get('services').db, tenantOf(c), {}, { limit: 100, offset: 0 }),
    listServiceInstances(depsOf(c), tenantOf(c), { serviceType: 'VC' }, { limit: 100, offset: 0 }),
  ]);
  return renderPage(
    c,
    'DIDs',
    <>
      <ListTable
        caption="Your DIDs and the system default, newest first"
        columns={[
          {
            label: 'DID',
            cell: (row) => (
              <>
                <a href={`/console/dids/${row.id}`}>{row.name ?? row.did}</a>
                {row.isDefault ? ' (your default)' : ''}
              </>
            ),
          },
          { label: 'Type', cell: (row) => row.type },
          { label: 'Status', cell: (row) => row.status },
        ]}
        rows={rows}
      />
      <h2>New DID</h2>
      <form method="post" action="/console/dids/new">
        <CsrfField token={c.get('csrfToken')} />
        <FormProblem errors={errors} />
        <SelectField
          name="type"
          label="Type"
          required
          errors={errors}
          value={values.type}
          hint="Managed: hosted under this service's VC service. Self-managed: on your own domain (you publish its did.json)."
          choices={[{ value: 'MANAGED', label: 'Managed' }, { value: 'SELF_MANAGED', label: 'Self-managed' }]}
        />
        <TextField name="alias" label="Alias" required errors={errors} value={values.alias} hint="Managed: a short name (letters, digits, hyphens). Self-managed: your domain, e.g. example.com." />
        <TextField name="name" label="Name" errors={errors} value={values.name} />
        <Actions>
          <button type="submit">Create DID</button>
        </Actions>
      </form>
      <h2>Import a DID</h2>
      <p class="hint">A did:web identifier your VC service already holds: recorded here without calling the service, unverified until you verify it.</p>
      <form method="post" action="/console/dids/import">
        <CsrfField token={c.get('csrfToken')} />
        <FormProblem errors={importErrors} />
        <TextField name="did" label="DID" required errors={importErrors} value={values.did} hint="For example did:web:example.com" />
        <TextField name="keyId" label="Key id" required errors={importErrors} value={values.keyId} hint="The id of its signing key at the VC service." />
        <SelectField
          name="serviceInstanceId"
          label="VC service"
          required
          errors={importErrors}
          value={values.serviceInstanceId}
          choices={instances.rows.map((instance) => ({ value: instance.id, label: instance.name }))}
        />
        <TextField name="importedName" label="Name of the imported DID" errors={importErrors} value={values.importedName} />
        <Actions>
          <button type="submit">Import DID</button>
        </Actions>
      </form>
    </>,
    status,
  );
};

const CheckList = (props: { checks: CheckOutcome[] }) => (
  <ul id="did-checks">
    {props.checks.map((check) => (
      <li>
        <strong>{`${check.name}: ${check.result}`}</strong> — {check.message}
      </li>
    ))}
  </ul>
);

const renderDid = async (c: Context<ConsoleEnv>, did: DidRow, checks?: { verified: boolean; checks: CheckOutcome[] }) => {
  let document: string;
  try {
    document = JSON.stringify(await didDocument(depsOf(c), tenantOf(c), did.id), null, 2);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    document = `The document could not be read: ${error.message}`;
  }
  const own = did.tenantId === tenantOf(c);
  return renderPage(
    c,
    did.name ?? 'DID',
    <>
      <dl class="facts">
        <dt>DID</dt>
        <dd>{did.did}</dd>
        <dt>Type</dt>
        <dd>{did.type}</dd>
        <dt>Status</dt>
        <dd id="did-status">{did.status}</dd>
        <dt>Default</dt>
        <dd>{did.isDefault ? 'yes' : 'no'}</dd>
      </dl>
      {checks ? (
        <section aria-labelledby="checks-title" class={checks.verified ? 'notice good' : 'notice bad'}>
          <h2 id="checks-title">{checks.verified ? 'Verified' : 'Not verified'}</h2>
          <CheckList checks={checks.checks} />
        </section>
      ) : null}
      {own ? (
        <div class="form-actions">
          <form method="post" action={`/console/dids/${did.id}/verify`}>
            <CsrfField token={c.get('csrfToken')} />
            <button type="submit" class="secondary">Verify</button>
          </form>
          {did.isDefault ? null : (
            <form method="post" action={`/console/dids/${did.id}/default`}>
              <CsrfField token={c.get('csrfToken')} />
              <button type="submit" class="secondary">Make it my default</button>
            </form>
          )}
        </div>
      ) : null}
      <h2>DID document</h2>
      <pre id="did-document">{document}</pre>
    </>,
  );
};

const loadDid = async (c: Context<ConsoleEnv>) => {
  const did = await findVisibleDid(c.get('services').db, tenantOf(c), c.req.param('id') ?? '');
  if (!did) throw notFound('DID');
  return did;
};

/** DIDs: list, create managed or self-managed, import one the VC service holds, the document, verify with each check's result, the default. */
export const registerDidPages = (app: Hono<ConsoleEnv>) => {
  app.get('/dids', (c) => renderList(c));

  app.post('/dids/new', async (c) => {
    const fields = await readForm(c);
    const input = { type: fields.type, method: 'DID_WEB', alias: fields.alias ?? '', ...(optional(fields, 'name') ? { name: optional(fields, 'name') } : {}) };
    const parsed = CreateDidBody.safeParse(input);
    if (!parsed.success) {
      const errors: FieldErrors = {};
      for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? '_form')] ??= issue.message;
      return renderList(c, fields, errors, 400);
    }
    try {
      const row = await createDid(depsOf(c), tenantOf(c), parsed.data);
      return c.redirect(`/console/dids/${row.id}`, 303);
    } catch (error) {
      if (error instanceof ApiError && [400, 403, 404, 409].includes(error.status)) {
        const named = fieldOfMessage(error.message);
        const errors = named && ['type', 'alias', 'name'].includes(named.field) ? { [named.field]: named.problem } : { _form: error.message };
        return renderList(c, fields, errors, error.status as 400 | 403 | 404 | 409);
      }
      throw error;
    }
  });

  app.post('/dids/import', async (c) => {
    const fields = await readForm(c);
    const input = {
      did: fields.did ?? '',
      method: 'DID_WEB',
      keyId: fields.keyId ?? '',
      serviceInstanceId: fields.serviceInstanceId ?? '',
      ...(optional(fields, 'importedName') ? { name: optional(fields, 'importedName') } : {}),
    };
    const parsed = ImportDidBody.safeParse(input);
    if (!parsed.success) {
      const errors: FieldErrors = {};
      for (const issue of parsed.error.issues) errors[IMPORT_FIELDS[String(issue.path[0])] ?? '_form'] ??= issue.message;
      return renderList(c, fields, undefined, 400, errors);
    }
    try {
      const row = await importDid(depsOf(c), tenantOf(c), parsed.data);
      return c.redirect(`/console/dids/${row.id}`, 303);
    } catch (error) {
      if (error instanceof ApiError && [400, 403, 404, 409].includes(error.status)) {
        const named = fieldOfMessage(error.message);
        const field = named ? IMPORT_FIELDS[named.field] : undefined;
        return renderList(c, fields, undefined, error.status as 400 | 403 | 404 | 409, field ? { [field]: named!.problem } : { _form: error.message });
      }
      throw error;
    }
  });

  app.get('/dids/:id', async (c) => renderDid(c, await loadDid(c)));

  app.post('/dids/:id/verify', async (c) => {
    const { did, verified, checks } = await verifyDid(depsOf(c), tenantOf(c), (await loadDid(c)).id);
    return renderDid(c, did, { verified, checks });
  });

  app.post('/dids/:id/default', async (c) => {
    const row = await updateDid(c.get('services').db, tenantOf(c), (await loadDid(c)).id, { isDefault: true });
    return c.redirect(`/console/dids/${row.id}`, 303);
  });
};
