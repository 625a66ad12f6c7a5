import type { Context, Hono } from 'hono';
import { ApiError, notFound } from '../../../core/errors.ts';
import type { ConsoleEnv } from '../console-env.ts';
import { fieldOfMessage, readForm } from '../form-fields.ts';
import { Actions, FormProblem, SelectField, TextArea, TextField, type Choice, type FieldErrors } from '../form-controls.tsx';
import { CsrfField, renderPage } from '../layout.tsx';
import { ListTable, pageCount, pageOf, Pager } from '../list-table.tsx';
import type { FieldSpec, MasterKind } from './master-kinds.ts';


const tenantOf = (c: Context<ConsoleEnv>) => c.get('principal').tenantId;

/** The form's values as the API's body: empty fields are left out, or null where emptying clears (edit). */
const toInput = (kind: MasterKind, fields: Record<string, string>, editing: boolean) => {
  const input: Record<string, unknown> = {};
  for (const spec of kind.fields) {
    if (editing && spec.createOnly) continue;
    const value = fields[spec.name] ?? '';
    if (value.trim() !== '') input[spec.name] = value;
    else if (editing && spec.clearable) input[spec.name] = null;
    else if (spec.required) input[spec.name] = value;
  }
  return input;
};

/**
 * The API's validation, message by message, beside the field each names (others above the form). Parsed async, as
 * the API parses: a scheme's pattern is checked on RE2, which loads on first use (core/schemes/patterns.ts).
 */
const validationErrors = async (kind: MasterKind, input: unknown, editing: boolean): Promise<FieldErrors | undefined> => {
  const result = await (editing ? kind.updateSchema : kind.createSchema).safeParseAsync(input);
  if (result.success) return undefined;
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '_form');
    errors[field] ??= issue.message;
  }
  return errors;
};

/** A refusal from core (400 naming a field, 404 for a record named in the form, 409) as the form shows it. */
const refusalErrors = (kind: MasterKind, error: ApiError): FieldErrors => {
  const named = fieldOfMessage(error.message);
  return named && kind.fields.some((f) => f.name === named.field) ? { [named.field]: named.problem } : { _form: error.message };
};

const Field = (props: { spec: FieldSpec; value: string; errors?: FieldErrors; choices?: Choice[] }) => {
  const { spec } = props;
  if (spec.kind === 'select') {
    return <SelectField name={spec.name} label={spec.label} required={spec.required} hint={spec.hint} errors={props.errors} value={props.value} choices={props.choices ?? []} empty={spec.required ? 'Choose…' : '—'} />;
  }
  if (spec.kind === 'textarea') return <TextArea name={spec.name} label={spec.label} required={spec.required} hint={spec.hint} errors={props.errors} value={props.value} />;
  return <TextField name={spec.name} label={spec.label} required={spec.required} hint={spec.hint} errors={props.errors} value={props.value} />;
};

const renderForm = async (c: Context<ConsoleEnv>, kind: MasterKind, options: { id?: string; values: Record<string, string>; errors?: FieldErrors; status?: 200 | 400 | 404 | 409 }) => {
  const editing = options.id !== undefined;
  const specs = kind.fields.filter((f) => !(editing && f.createOnly));
  const choices = await Promise.all(specs.map((f) => f.choices?.(c.get('services').db, tenantOf(c))));
  const action = editing ? `/console/${kind.path}/${options.id}` : `/console/${kind.path}/new`;
  const title = editing ? `Edit ${kind.singular}` : `New ${kind.singular}`;
  return renderPage(
    c,
    title,
    <>
      <form method="post" action={action} novalidate>
        <CsrfField token={c.get('csrfToken')} />
        <FormProblem errors={options.errors} />
        {specs.map((spec, i) => (
          <Field spec={spec} value={options.values[spec.name] ?? ''} errors={options.errors} choices={choices[i]} />
        ))}
        <Actions>
          <button type="submit">{editing ? 'Save' : `Create ${kind.singular}`}</button>
          <a class="button secondary" href={`/console/${kind.path}`}>Cancel</a>
        </Actions>
      </form>
      {editing ? (
        <form method="post" action={`/console/${kind.path}/${options.id}/delete`}>
          <CsrfField token={c.get('csrfToken')} />
          <h2>Delete</h2>
          <p class="hint">Deleting cannot be undone.</p>
          <button type="submit" class="danger">Delete this {kind.singular}</button>
        </form>
      ) : null}
    </>,
    options.status ?? 200,
  );
};

/** Submits a create or an edit: the API's schema first, then core; a refusal goes back to the form. */
const submit = async (c: Context<ConsoleEnv>, kind: MasterKind, id: string | undefined) => {
  const fields = await readForm(c);
  const editing = id !== undefined;
  const input = toInput(kind, fields, editing);
  const invalid = await validationErrors(kind, input, editing);
  if (invalid) return renderForm(c, kind, { id, values: fields, errors: invalid, status: 400 });
  const { db } = c.get('services');
  try {
    if (editing) await kind.update(db, tenantOf(c), id, input);
    else await kind.create(db, tenantOf(c), input);
  } catch (error) {
    // A missing record being edited is the page's 404; a record named in the form goes back beside its field.
    if (error instanceof ApiError && [400, 404, 409].includes(error.status) && !(editing && error.message === `${capitalised(kind)} not found`)) {
      return renderForm(c, kind, { id, values: fields, errors: refusalErrors(kind, error), status: error.status as 400 | 404 | 409 });
    }
    throw error;
  }
  return c.redirect(`/console/${kind.path}?saved=1`, 303);
};

const capitalised = (kind: MasterKind) => kind.singular.charAt(0).toUpperCase() + kind.singular.slice(1);

const valuesOf = (kind: MasterKind, row: Record<string, unknown>) =>
  Object.fromEntries(kind.fields.map((f) => [f.name, row[f.name] == null ? '' : String(row[f.name])]));

/** The list, the create and edit forms and delete of one kind of master record. */
export const registerMasterPages = (app: Hono<ConsoleEnv>, kind: MasterKind, options: { searchable: boolean }) => {
  const base = `/${kind.path}`;

  app.get(base, async (c) => {
    const search = c.req.query('q')?.trim() || undefined;
    const { page, window } = pageOf(c);
    const { rows, total } = await kind.list(c.get('services').db, tenantOf(c), search, window);
    const pages = pageCount(total);
    const link = (p: number) => `/console/${kind.path}?${new URLSearchParams({ ...(search ? { q: search } : {}), page: String(p) })}`;
    return renderPage(
      c,
      kind.plural,
      <>
        {c.req.query('saved') ? <p class="notice good" role="status">Saved.</p> : null}
        <p>
          <a class="button" href={`/console/${kind.path}/new`}>New {kind.singular}</a>
        </p>
        {options.searchable ? (
          <form method="get" action={`/console/${kind.path}`} class="search" role="search">
            <div>
              <label for="q">Search by name or identifier</label>
              <input id="q" name="q" type="search" value={search ?? ''} />
            </div>
            <button type="submit" class="secondary">Search</button>
          </form>
        ) : null}
        <p id="list-count">{`${total} ${total === 1 ? kind.singular : kind.plural.toLowerCase()}${search ? ` matching “${search}”` : ''}`}</p>
        <ListTable
          caption={`${kind.plural}, newest first (page ${page} of ${pages})`}
          columns={[{ label: kind.titleLabel, cell: (row) => <a href={`/console/${kind.path}/${row.id}`}>{kind.title(row)}</a> }, ...kind.columns.map((col) => ({ label: col.label, cell: col.value }))]}
          rows={rows}
        />
        <Pager page={page} pages={pages} link={link} />
      </>,
    );
  });

  app.get(`${base}/new`, (c) => renderForm(c, kind, { values: c.req.query() }));
  app.post(`${base}/new`, (c) => submit(c, kind, undefined));

  app.get(`${base}/:id`, async (c) => {
    const row = await kind.find(c.get('services').db, tenantOf(c), c.req.param('id'));
    if (!row) throw notFound(capitalised(kind));
    return renderForm(c, kind, { id: row.id, values: valuesOf(kind, row) });
  });
  app.post(`${base}/:id`, async (c) => {
    const row = await kind.find(c.get('services').db, tenantOf(c), c.req.param('id'));
    if (!row) throw notFound(capitalised(kind));
    return submit(c, kind, row.id);
  });
  app.post(`${base}/:id/delete`, async (c) => {
    await kind.remove(c.get('services').db, tenantOf(c), c.req.param('id'));
    return c.redirect(`/console/${kind.path}?saved=1`, 303);
  });
};
