import type { Context } from 'hono';
import { listDataModels } from '../../../core/data-models/data-model-repository.ts';
import { canBuildPayload, type TypedField } from '../../../core/console/payload-from-master-data.ts';
import type { ConsoleEnv } from '../console-env.ts';
import { Actions, FormProblem, SelectField, TextField, type FieldErrors } from '../form-controls.tsx';
import { CsrfField, renderPage } from '../layout.tsx';
import { loadIssueForm, type IssuePicker } from './issue-choices.ts';

type IssueForm = Awaited<ReturnType<typeof loadIssueForm>>;

/** Step 1: the data model (type and version). A plain GET form: the choice is the next page's address. */
export const renderModelChoice = async (c: Context<ConsoleEnv>) => {
  const { rows } = await listDataModels(c.get('services').db, c.get('principal').tenantId, {}, { limit: 200, offset: 0 });
  const buildable = rows.filter((m) => canBuildPayload(m.credentialType, m.version));
  return renderPage(
    c,
    'Issue a credential',
    <form method="get" action="/console/issue">
      <SelectField
        name="dataModelId"
        label="Data model"
        required
        hint="The credential type and version. The console builds every UNTP credential type (product passport, conformity credential, facility record, traceability event, identity anchor) from your master data; other models are issued through the API."
        choices={buildable.map((m) => ({ value: m.id, label: `${m.name} (${m.credentialType} ${m.version})` }))}
      />
      <Actions>
        <button type="submit">Continue</button>
      </Actions>
    </form>,
  );
};

const labelOf = (row: { name: string; level?: string }) => (row.level ? `${row.name} (${row.level.toLowerCase()})` : row.name);

/** The scheme picker refreshes the profile picker that depends on it: htmx swaps it in; without scripts, a button. */
const DEPENDENT_REFRESH = {
  'hx-post': '/console/issue/choices',
  'hx-trigger': 'change',
  'hx-include': 'closest form',
  'hx-select': '#conformityProfile-picker',
  'hx-target': '#conformityProfile-picker',
  'hx-swap': 'outerHTML',
};

const Picker = (props: { picker: IssuePicker; values: Record<string, string>; errors?: FieldErrors; dependants: string[] }) => {
  const { section, rows } = props.picker;
  const what = section.label.toLowerCase();
  const waiting = section.dependsOn && !props.values[section.dependsOn];
  const select = (
    <SelectField
      name={section.key}
      label={section.label}
      required={section.required}
      errors={props.errors}
      value={props.values[section.key]}
      hint={section.dependsOn ? `The profiles of the chosen ${section.dependsOn === 'conformityScheme' ? 'conformity scheme' : section.dependsOn}.` : undefined}
      empty={waiting ? 'Choose the scheme first' : rows.length === 0 ? `No ${what} yet` : `Choose a ${what}`}
      choices={rows.map((row) => ({ value: row.id, label: labelOf(row) }))}
      extra={props.dependants.length > 0 ? DEPENDENT_REFRESH : undefined}
    />
  );
  if (section.dependsOn) return <div id={`${section.key}-picker`}>{select}</div>;
  if (props.dependants.length === 0) return select;
  return (
    <>
      {select}
      <noscript>
        <button type="submit" class="secondary" formaction="/console/issue/choices" formnovalidate>
          Show the {what}’s profiles
        </button>
      </noscript>
    </>
  );
};

const Typed = (props: { field: TypedField; values: Record<string, string>; errors?: FieldErrors }) => {
  const { field, values, errors } = props;
  return field.choices ? (
    <SelectField name={field.key} label={field.label} required hint={field.hint} errors={errors} value={values[field.key]} empty={`Choose the ${field.label.toLowerCase()}`} choices={field.choices.map((v) => ({ value: v, label: v }))} />
  ) : (
    <TextField name={field.key} label={field.label} required hint={field.hint} errors={errors} value={values[field.key]} type={field.type} maxlength={field.maxlength} />
  );
};

/** Step 2: the entities through the pickers form-config describes, the typed values, the signing DID, template and storage. */
export const IssueFormBody = (props: { form: IssueForm; values: Record<string, string>; errors?: FieldErrors; token: string }) => {
  const { form, values, errors } = props;
  const defaultDid = form.dids.find((d) => d.isDefault) ?? form.dids[0];
  const defaultTemplate = form.templates.find((t) => t.isDefault);
  return (
    <form method="post" action="/console/issue/preview">
      <CsrfField token={props.token} />
      <input type="hidden" name="dataModelId" value={form.model.id} />
      <p>
        Data model: <strong>{form.model.name}</strong> ({form.model.credentialType} {form.model.version}) · <a href="/console/issue">change</a>
      </p>
      <FormProblem errors={errors} />
      <fieldset>
        <legend>What the credential is about</legend>
        {form.pickers.map((picker) => (
          <Picker picker={picker} values={values} errors={errors} dependants={form.pickers.filter((p) => p.section.dependsOn === picker.section.key).map((p) => p.section.key)} />
        ))}
        {form.fields.map((field) => (
          <Typed field={field} values={values} errors={errors} />
        ))}
      </fieldset>
      <fieldset>
        <legend>How it is issued</legend>
        <SelectField
          name="issuerDid"
          label="Signing DID"
          required
          errors={errors}
          value={values.issuerDid ?? defaultDid?.id}
          empty={form.dids.length === 0 ? 'No DID yet: create one under DIDs' : undefined}
          choices={form.dids.map((d) => ({ value: d.id, label: `${d.name ?? d.alias ?? d.did} — ${d.did}` }))}
        />
        <SelectField
          name="renderTemplateId"
          label="Render template"
          errors={errors}
          value={values.renderTemplateId ?? defaultTemplate?.id}
          empty="No render method"
          choices={form.templates.map((t) => ({ value: t.id, label: t.isDefault ? `${t.name} (default)` : t.name }))}
        />
        <div class="field">
          <label>
            <input type="checkbox" name="encrypt" value="true" checked={values.encrypt !== 'false' && (values.encrypt === 'true' || !('dataModelId' in values))} /> Encrypt the stored copy
          </label>
        </div>
      </fieldset>
      <Actions>
        <button type="submit">Preview what will be signed</button>
      </Actions>
    </form>
  );
};

export const renderIssueForm = async (c: Context<ConsoleEnv>, dataModelId: string, values: Record<string, string>, errors?: FieldErrors, status: 200 | 400 = 200) => {
  const form = await loadIssueForm(c.get('services'), c.get('principal').tenantId, dataModelId, values);
  if (!form.buildable) {
    return renderPage(c, 'Issue a credential', <p class="notice warn">The console does not build {form.model.name}: issue it through the API.</p>, 400);
  }
  return renderPage(c, 'Issue a credential', <IssueFormBody form={form} values={values} errors={errors} token={c.get('csrfToken')} />, status);
};
