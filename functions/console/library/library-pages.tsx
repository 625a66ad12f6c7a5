import type { Context, Hono } from 'hono';
import { assertValidTags } from '../../../core/credentials/tags.ts';
import { domainDeps } from '../../../core/deps.ts';
import { ApiError, notFound } from '../../../core/errors.ts';
import { CORE_TYPE_CODE_LIST, CORE_TYPE_CODES } from '../../../core/library/credential-types.ts';
import { listRecordIds, loadRecordView, loadRecordViews, type LibraryFilters, type RecordView } from '../../../core/library/record-queries.ts';
import { assertAnnotatable, findOwnRecord, replaceTags, updateAnnotations } from '../../../core/library/record-writes.ts';
import { DuplicateCredentialError, registerExternal, type LibraryDeps } from '../../../core/library/register-external.ts';
import { reverifyRecord } from '../../../core/library/reverify-record.ts';
import { CHECK_NAMES } from '../../../core/library/verification-envelope.ts';
import { RegisterExternalBody, UpdateAnnotationsBody } from '../../library/annotation-fields.ts';
import { toCredentialRecord } from '../../library/schemas.ts';
import type { ConsoleEnv } from '../console-env.ts';
import { Actions, FormProblem, SelectField, TextArea, TextField, type FieldErrors } from '../form-controls.tsx';
import { optional, readForm } from '../form-fields.ts';
import { CsrfField, renderPage } from '../layout.tsx';
import { ListTable } from '../list-table.tsx';

type Status = 200 | 400 | 403 | 404 | 409 | 422 | 502;
const tenantOf = (c: Context<ConsoleEnv>) => c.get('principal').tenantId;

/** The library's writes need the job queue (a generation is enqueued with them): the Node web process has it. */
const depsOf = (c: Context<ConsoleEnv>): LibraryDeps => {
  const { jobs } = c.get('services');
  if (!jobs) throw new ApiError(503, 'Verification jobs cannot be queued from this runtime.', 'JOB_QUEUE_UNAVAILABLE');
  return { ...domainDeps(c.get('services')), correlationId: c.get('correlationId'), jobs };
};

const STATUS_FILTERS = ['pending', 'verified', 'not_conformant', 'failed'] as const;
const TYPE_CHOICES = CORE_TYPE_CODE_LIST.map((code) => ({ value: code, label: code }));

/** Tags as typed: words separated by commas or spaces. */
const tagsOf = (typed: string | undefined) => (typed ?? '').split(/[\s,]+/).filter(Boolean);

/** An API message `field: problem` (also `tags[0]: problem`) beside the named form field (the last part of its path), else above the form. */
const errorsOf = (message: string, fields: string[]): FieldErrors => {
  const named = message.match(/^([A-Za-z][\w.[\]]*): (.+)$/s);
  const field = named?.[1]!.replace(/\[\d+\]/g, '').split('.').pop();
  return named && field && fields.includes(field) ? { [field]: named[2]! } : { _form: message };
};

const zodErrors = (issues: { path: PropertyKey[]; message: string }[]): FieldErrors => {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = [...issue.path].reverse().find((part) => typeof part === 'string');
    errors[String(field ?? '_form')] ??= issue.message;
  }
  return errors;
};

const REGISTER_FIELDS = ['sourceUrl', 'decryptionKey', 'displayName', 'declaredCredentialType', 'dateReceived', 'notes', 'tags'];

const renderList = async (c: Context<ConsoleEnv>, values: Record<string, string> = {}, errors?: FieldErrors, status: Status = 200) => {
  const requested = c.req.query('status');
  const summary = STATUS_FILTERS.find((s) => s === requested);
  const filters: LibraryFilters = summary ? { status: summary } : {};
  const { ids, total } = await listRecordIds(c.get('services').db, tenantOf(c), filters, 'createdAt:desc', { limit: 50, offset: 0 });
  const views = await loadRecordViews(c.get('services').db, tenantOf(c), ids);
  const rows = ids.map((id) => views.get(id)).filter((view): view is RecordView => view !== undefined).map((view) => toCredentialRecord(view));
  return renderPage(
    c,
    'Library',
    <>
      <form method="get" action="/console/library" class="filters">
        <SelectField
          name="status"
          label="Verification"
          value={summary ?? ''}
          empty="Any"
          choices={STATUS_FILTERS.map((s) => ({ value: s, label: s.replace('_', ' ') }))}
        />
        <Actions>
          <button type="submit" class="secondary">Filter</button>
        </Actions>
      </form>
      <ListTable
        caption={`${total} record${total === 1 ? '' : 's'}, newest first${total > rows.length ? ` (the first ${rows.length} shown)` : ''}`}
        columns={[
          { label: 'Credential', cell: (row) => <a href={`/console/library/${row.id}`}>{row.annotations?.displayName ?? row.credential.name ?? row.id}</a> },
          { label: 'Origin', cell: (row) => row.origin },
          { label: 'Verification', cell: (row) => row.verification.summary.replace('_', ' ') },
          { label: 'Tags', cell: (row) => row.tags.join(', ') },
        ]}
        rows={rows}
      />
      <h2>Register a received credential</h2>
      <form method="post" action="/console/library/new">
        <CsrfField token={c.get('csrfToken')} />
        <input type="hidden" name="registrationKey" value={values.registrationKey ?? crypto.randomUUID()} />
        <FormProblem errors={errors} />
        <TextField name="sourceUrl" label="Where it is (URL)" type="url" required errors={errors} value={values.sourceUrl} />
        <TextField name="decryptionKey" label="Its key" errors={errors} hint="Only when the credential is encrypted: the 64 hex characters the supplier gave you. Used once, never stored." />
        <TextField name="displayName" label="Name" required errors={errors} value={values.displayName} />
        <SelectField name="declaredCredentialType" label="Type" required errors={errors} value={values.declaredCredentialType} choices={TYPE_CHOICES} />
        <TextField name="dateReceived" label="Date received" type="date" errors={errors} value={values.dateReceived} />
        <TextArea name="notes" label="Notes" errors={errors} value={values.notes} />
        <TextField name="tags" label="Tags" errors={errors} value={values.tags} hint="Lower-case words joined by hyphens, separated by commas or spaces." />
        <Actions>
          <button type="submit">Register</button>
        </Actions>
      </form>
    </>,
    status,
  );
};

const renderRecord = async (c: Context<ConsoleEnv>, view: RecordView, errors?: FieldErrors, status: Status = 200, values: Record<string, string> = {}) => {
  const row = toCredentialRecord(view);
  const token = c.get('csrfToken');
  const { verification } = row;
  const title = row.annotations?.displayName ?? row.credential.name ?? 'Library record';
  return renderPage(
    c,
    title,
    <>
      <FormProblem errors={errors?._form ? { _form: errors._form } : undefined} />
      <dl class="facts">
        <dt>Origin</dt>
        <dd>{row.origin}</dd>
        <dt>Type</dt>
        <dd>{row.credential.credentialType ?? 'unknown'}</dd>
        <dt>Issuer</dt>
        <dd>{row.credential.issuerName ?? row.credential.issuerDid ?? 'unknown'}</dd>
        {row.sourceUrl ? (
          <>
            <dt>Source</dt>
            <dd class="wrap">{row.sourceUrl}</dd>
          </>
        ) : null}
        <dt>Tags</dt>
        <dd id="record-tags">{row.tags.length ? row.tags.join(', ') : 'none'}</dd>
      </dl>
      <section aria-labelledby="checks-title" class={verification.summary === 'verified' ? 'notice good' : verification.summary === 'pending' ? 'notice' : 'notice bad'}>
        <h2 id="checks-title">{`Verification ${verification.generation}: ${verification.summary.replace('_', ' ')}`}</h2>
        <ul id="record-checks">
          {CHECK_NAMES.map((name) => (
            <li>{`${name}: ${verification.checks[name].replace('_', ' ')}`}</li>
          ))}
        </ul>
        {verification.failure ? <p>{verification.failure.message}</p> : null}
        {verification.state === 'pending' ? <p>The worker verifies it shortly: reload this page to see the result.</p> : null}
      </section>
      <h2>Verify again</h2>
      <form method="post" action={`/console/library/${row.id}/verify`}>
        <CsrfField token={token} />
        {view.external?.unopened ? (
          <TextField name="decryptionKey" label="Its key" required errors={errors} hint="The stored copy is still encrypted: the supplier's key opens it (used once, never stored)." />
        ) : null}
        <Actions>
          <button type="submit" class="secondary">Verify again</button>
        </Actions>
      </form>
      <h2>Tags</h2>
      <form method="post" action={`/console/library/${row.id}/tags`}>
        <CsrfField token={token} />
        <input type="hidden" name="tagVersion" value={String(row.tagVersion)} />
        <TextField name="tags" label="Tags" errors={errors} value={values.tags ?? row.tags.join(', ')} hint="Lower-case words joined by hyphens, separated by commas or spaces; empty clears them." />
        <Actions>
          <button type="submit" class="secondary">Save tags</button>
        </Actions>
      </form>
      {row.annotations ? (
        <>
          <h2>Annotations</h2>
          <form method="post" action={`/console/library/${row.id}/annotations`}>
            <CsrfField token={token} />
            <input type="hidden" name="annotationVersion" value={String(row.annotations.annotationVersion)} />
            <TextField name="displayName" label="Name" required errors={errors} value={values.displayName ?? row.annotations.displayName} />
            <SelectField name="declaredCredentialType" label="Type" required errors={errors} value={values.declaredCredentialType ?? row.annotations.declaredCredentialType} choices={TYPE_CHOICES} />
            <TextField name="dateReceived" label="Date received" type="date" errors={errors} value={values.dateReceived ?? row.annotations.dateReceived ?? ''} />
            <TextArea name="notes" label="Notes" errors={errors} value={values.notes ?? row.annotations.notes ?? ''} />
            <Actions>
              <button type="submit" class="secondary">Save annotations</button>
            </Actions>
          </form>
        </>
      ) : null}
    </>,
    status,
  );
};

const loadView = async (c: Context<ConsoleEnv>) => {
  const view = await loadRecordView(c.get('services').db, tenantOf(c), c.req.param('id') ?? '');
  if (!view) throw notFound('Credential record');
  return view;
};

/** A refusal the person can act on, shown on the record's page; anything else goes to the console's error page. */
const shownOnRecord = async (c: Context<ConsoleEnv>, error: unknown, fields: string[], values: Record<string, string> = {}) => {
  if (!(error instanceof ApiError) || ![400, 403, 409, 422, 502].includes(error.status)) throw error;
  return renderRecord(c, await loadView(c), errorsOf(error.message, fields), error.status as Status, values);
};

/** The version a form carried (the API's If-Version): a number, else 400 naming the field. */
const versionOf = (fields: Record<string, string>, name: string) => {
  const value = Number(fields[name]);
  if (!Number.isInteger(value) || value < 1) throw new ApiError(400, `${name}: must be the version the page showed`, 'INVALID_IF_VERSION');
  return value;
};

/**
 * The library: the tenant's records with their latest verification, register a received credential by
 * URL (and key), a record's checks, verify again, tags and annotations, through the same core functions
 * as /api/v1/library.
 */
export const registerLibraryPages = (app: Hono<ConsoleEnv>) => {
  app.get('/library', (c) => renderList(c));

  app.post('/library/new', async (c) => {
    const fields = await readForm(c);
    const key = optional(fields, 'decryptionKey');
    const body = {
      sourceUrl: fields.sourceUrl ?? '',
      ...(key ? { sourceEncryption: { decryptionKey: key } } : {}),
      annotations: {
        displayName: fields.displayName ?? '',
        declaredCredentialType: fields.declaredCredentialType ?? '',
        ...(optional(fields, 'dateReceived') ? { dateReceived: optional(fields, 'dateReceived') } : {}),
        ...(optional(fields, 'notes') ? { notes: fields.notes } : {}),
      },
      tags: tagsOf(fields.tags),
    };
    const parsed = RegisterExternalBody.safeParse(body);
    if (!parsed.success) return renderList(c, fields, zodErrors(parsed.error.issues), 400);
    const { settings } = c.get('services');
    try {
      const tags = assertValidTags(parsed.data.tags ?? [], settings.issuance);
      const { recordId } = await registerExternal(depsOf(c), {
        tenantId: tenantOf(c),
        idempotencyKey: `console:${optional(fields, 'registrationKey') ?? crypto.randomUUID()}`,
        body: parsed.data,
        staleClaimMinutes: settings.idempotencyStaleClaimMinutes,
        registration: { sourceUrl: parsed.data.sourceUrl, supplierKey: key, annotations: parsed.data.annotations, tags },
      });
      return c.redirect(`/console/library/${recordId}`, 303);
    } catch (error) {
      if (error instanceof DuplicateCredentialError) {
        return renderList(c, fields, { _form: `${error.message} It is record ${error.recordId}: open it from the list.` }, 409);
      }
      if (error instanceof ApiError && [400, 403, 409, 422, 502].includes(error.status)) {
        return renderList(c, fields, errorsOf(error.message, REGISTER_FIELDS), error.status as Status);
      }
      throw error;
    }
  });

  app.get('/library/:id', async (c) => renderRecord(c, await loadView(c)));

  app.post('/library/:id/verify', async (c) => {
    const view = await loadView(c);
    const fields = await readForm(c);
    try {
      await reverifyRecord(depsOf(c), tenantOf(c), view, optional(fields, 'decryptionKey'));
    } catch (error) {
      return shownOnRecord(c, error, ['decryptionKey']);
    }
    return c.redirect(`/console/library/${view.record.id}`, 303);
  });

  app.post('/library/:id/tags', async (c) => {
    const { db, settings } = c.get('services');
    const { id } = await findOwnRecord(db, tenantOf(c), c.req.param('id'));
    const fields = await readForm(c);
    try {
      const version = versionOf(fields, 'tagVersion');
      await replaceTags(db, tenantOf(c), id, version, assertValidTags(tagsOf(fields.tags), settings.issuance));
    } catch (error) {
      return shownOnRecord(c, error, ['tags'], fields);
    }
    return c.redirect(`/console/library/${id}`, 303);
  });

  app.post('/library/:id/annotations', async (c) => {
    const { db } = c.get('services');
    const record = await findOwnRecord(db, tenantOf(c), c.req.param('id'));
    const fields = await readForm(c);
    try {
      assertAnnotatable(record.origin);
      const version = versionOf(fields, 'annotationVersion');
      const parsed = UpdateAnnotationsBody.safeParse({
        displayName: fields.displayName ?? '',
        declaredCredentialType: fields.declaredCredentialType ?? '',
        dateReceived: optional(fields, 'dateReceived') ?? null,
        notes: optional(fields, 'notes') ? fields.notes : null,
      });
      if (!parsed.success) return renderRecord(c, await loadView(c), zodErrors(parsed.error.issues), 400, fields);
      const patch = parsed.data;
      await updateAnnotations(db, tenantOf(c), record.id, version, {
        ...patch,
        declaredCredentialType: patch.declaredCredentialType === undefined ? undefined : CORE_TYPE_CODES[patch.declaredCredentialType],
      });
    } catch (error) {
      return shownOnRecord(c, error, ['displayName', 'declaredCredentialType', 'dateReceived', 'notes'], fields);
    }
    return c.redirect(`/console/library/${record.id}`, 303);
  });
};
