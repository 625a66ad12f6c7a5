import type { Context, Hono } from 'hono';
import { sampleCredential } from '../../../core/console/sample-credential.ts';
import { findDataModel, listDataModels } from '../../../core/data-models/data-model-repository.ts';
import { domainDeps } from '../../../core/deps.ts';
import { ApiError, notFound } from '../../../core/errors.ts';
import { readPublishedTemplate } from '../../../core/render-templates/published-template.ts';
import { sanitizeOffThread } from '../../../core/render-templates/sanitize-pool.ts';
import { renderTemplate, TemplateError } from '../../../core/render-templates/template-engine.js';
import { createTemplate, findTemplate, listTemplates, updateTemplate, type RenderTemplateRow } from '../../../core/render-templates/template-repository.ts';
import type { TemplateDeps } from '../../../core/render-templates/template-storage.ts';
import { isSystemOwned } from '../../../core/tenancy/visibility.ts';
import { RENDER_METHOD_TYPES } from '../../../db/schema/index.ts';
import { CreateRenderTemplateBody, UpdateRenderTemplateBody } from '../../render-templates/schemas.ts';
import type { ConsoleEnv } from '../console-env.ts';
import { Actions, FormProblem, SelectField, TextArea, TextField, type FieldErrors } from '../form-controls.tsx';
import { fieldOfMessage, readForm } from '../form-fields.ts';
import { CsrfField, renderPage } from '../layout.tsx';
import { ListTable } from '../list-table.tsx';

type Status = 200 | 400 | 403 | 404 | 409 | 422 | 502;
const tenantOf = (c: Context<ConsoleEnv>) => c.get('principal').tenantId;
const depsOf = (c: Context<ConsoleEnv>): TemplateDeps => ({ ...domainDeps(c.get('services')), correlationId: c.get('correlationId') });
const FIELDS = ['name', 'dataModelId', 'renderMethodType', 'template', 'isDefault'];

const zodErrors = (issues: { path: PropertyKey[]; message: string }[]): FieldErrors => {
  const errors: FieldErrors = {};
  for (const issue of issues) errors[String(issue.path[0] ?? '_form')] ??= issue.message;
  return errors;
};

/** A refusal the person can act on goes back to the form (beside the field it names); anything else is the error page. */
const formErrors = (error: unknown): { errors: FieldErrors; status: Status } => {
  if (!(error instanceof ApiError) || ![400, 403, 404, 409, 422, 502].includes(error.status)) throw error;
  const named = fieldOfMessage(error.message);
  return { errors: named && FIELDS.includes(named.field) ? { [named.field]: named.problem } : { _form: error.message }, status: error.status as Status };
};

/**
 * The template filled from a sample credential of its data model, as it would be stored (sanitised first):
 * what the preview frame shows. A template the engine refuses shows the engine's reason instead.
 */
const previewOf = async (c: Context<ConsoleEnv>, dataModelId: string, html: string): Promise<{ html?: string; problem?: string }> => {
  const model = await findDataModel(c.get('services').db, tenantOf(c), dataModelId);
  if (!model) return { problem: 'Choose a data model to preview against.' };
  if (!html.trim()) return { problem: 'The template is empty.' };
  try {
    return { html: renderTemplate((await sanitizeOffThread(html)).html, sampleCredential(model)) };
  } catch (error) {
    if (error instanceof TemplateError) return { problem: `The template cannot be rendered: ${error.message}` };
    throw error;
  }
};

/**
 * The preview frame: sandboxed without any permission (no scripts, a unique origin) and, being srcdoc, under
 * the console's own CSP (no script runs, nothing is fetched from elsewhere). htmx replaces it as the person types.
 */
const Preview = (props: { preview: { html?: string; problem?: string } }) => (
  <div id="preview" aria-live="polite">
    {props.preview.html !== undefined ? (
      <iframe class="rendered" sandbox="" srcdoc={props.preview.html} title="The template filled from a sample credential"></iframe>
    ) : (
      <p class="notice bad">{props.preview.problem}</p>
    )}
  </div>
);

/** The template's HTML area, previewed live (htmx posts it with its form as the person types). */
const TemplateArea = (props: { value?: string; errors?: FieldErrors }) => (
  <div hx-post="/console/templates/preview" hx-trigger="input changed delay:600ms from:#template, change from:#dataModelId" hx-target="#preview" hx-swap="outerHTML" hx-include="closest form">
    <TextArea name="template" label="Template (HTML with {{placeholders}})" required errors={props.errors} value={props.value} hint="Filled from the credential, e.g. {{credentialSubject.name}}. Scripts and event handlers are removed when it is saved." />
  </div>
);

const describeType = (row: RenderTemplateRow) => (row.renderMethodType === 'RenderTemplate2024' ? 'RenderTemplate2024' : 'WebRenderingTemplate2022');

const renderList = async (c: Context<ConsoleEnv>, values: Record<string, string> = {}, errors?: FieldErrors, status: Status = 200) => {
  const [{ rows }, models] = await Promise.all([
    listTemplates(depsOf(c), tenantOf(c), {}, { limit: 100, offset: 0 }),
    listDataModels(c.get('services').db, tenantOf(c), {}, { limit: 200, offset: 0 }),
  ]);
  const modelName = new Map(models.rows.map((m) => [m.id, m.name]));
  const modelId = values.dataModelId ?? models.rows[0]?.id ?? '';
  const preview = values.template !== undefined ? await previewOf(c, modelId, values.template) : { problem: 'Type a template to see it filled from a sample credential.' };
  return renderPage(
    c,
    'Render templates',
    <>
      <ListTable
        caption="Your templates and the system's, newest first"
        columns={[
          {
            label: 'Template',
            cell: (row) => (
              <>
                <a href={`/console/templates/${row.id}`}>{row.name}</a>
                {isSystemOwned(row) ? ' (system)' : ''}
              </>
            ),
          },
          { label: 'Data model', cell: (row) => modelName.get(row.dataModelId) ?? row.dataModelId },
          { label: 'Render method', cell: (row) => describeType(row) },
          { label: 'Default', cell: (row) => (row.isDefault ? 'yes' : 'no') },
        ]}
        rows={rows}
      />
      <h2>Upload a template</h2>
      <form method="post" action="/console/templates/new">
        <CsrfField token={c.get('csrfToken')} />
        <FormProblem errors={errors} />
        <TextField name="name" label="Name" required errors={errors} value={values.name} />
        <SelectField name="dataModelId" label="Data model" required errors={errors} value={modelId} choices={models.rows.map((m) => ({ value: m.id, label: m.name }))} />
        <SelectField name="renderMethodType" label="Render method" required errors={errors} value={values.renderMethodType ?? 'RenderTemplate2024'} choices={RENDER_METHOD_TYPES.map((t) => ({ value: t, label: t }))} />
        <SelectField name="isDefault" label="The default of its data model" errors={errors} value={values.isDefault ?? 'false'} choices={[{ value: 'false', label: 'No' }, { value: 'true', label: 'Yes' }]} />
        <TemplateArea value={values.template} errors={errors} />
        <Actions>
          <button type="submit">Upload the template</button>
          <button type="submit" class="secondary" formaction="/console/templates/new?preview=1">Preview</button>
        </Actions>
      </form>
      <h2>Preview</h2>
      <Preview preview={preview} />
    </>,
    status,
  );
};

const loadTemplate = async (c: Context<ConsoleEnv>) => {
  const row = await findTemplate(depsOf(c), tenantOf(c), c.req.param('id') ?? '');
  if (!row) throw notFound('Render template');
  return row;
};

const contentOf = async (c: Context<ConsoleEnv>, row: RenderTemplateRow) => {
  const services = c.get('services');
  return readPublishedTemplate({ db: services.db, fetcher: services.fetcher, logger: services.logger, correlationId: c.get('correlationId') }, row.storageUrl, row.digestMultibase);
};

const renderTemplatePage = async (c: Context<ConsoleEnv>, row: RenderTemplateRow, values: Record<string, string> = {}, errors?: FieldErrors, status: Status = 200) => {
  const content = values.template ?? (await contentOf(c, row));
  const model = await findDataModel(c.get('services').db, tenantOf(c), row.dataModelId);
  const own = !isSystemOwned(row);
  const token = c.get('csrfToken');
  return renderPage(
    c,
    row.name,
    <>
      <dl class="facts">
        <dt>Data model</dt>
        <dd>{model ? model.name : row.dataModelId}</dd>
        <dt>Render method</dt>
        <dd>{describeType(row)}</dd>
        <dt>Default</dt>
        <dd id="template-default">{row.isDefault ? 'yes' : 'no'}</dd>
        <dt>Published at</dt>
        <dd class="wrap">{row.storageUrl}</dd>
      </dl>
      {own && !row.isDefault ? (
        <form method="post" action={`/console/templates/${row.id}/default`}>
          <CsrfField token={token} />
          <Actions>
            <button type="submit" class="secondary">Make it the default of its data model</button>
          </Actions>
        </form>
      ) : null}
      {own ? (
        <>
          <h2>Edit</h2>
          <form method="post" action={`/console/templates/${row.id}`}>
            <CsrfField token={token} />
            <input type="hidden" id="dataModelId" name="dataModelId" value={row.dataModelId} />
            <FormProblem errors={errors} />
            <TextField name="name" label="Name" required errors={errors} value={values.name ?? row.name} />
            <TemplateArea value={content} errors={errors} />
            <Actions>
              <button type="submit">Save</button>
              <button type="submit" class="secondary" formaction={`/console/templates/${row.id}?preview=1`}>Preview</button>
            </Actions>
          </form>
        </>
      ) : (
        <p class="hint">A system template: read-only. Upload your own to change how this data model renders.</p>
      )}
      <h2>Preview</h2>
      <Preview preview={await previewOf(c, row.dataModelId, content)} />
    </>,
    status,
  );
};

/**
 * Render templates: the tenant's and the system's, upload one, edit it with a live preview against a
 * sample credential of its data model, choose the default; through core/render-templates as the API.
 */
export const registerTemplatePages = (app: Hono<ConsoleEnv>) => {
  app.get('/templates', (c) => renderList(c));

  app.post('/templates/preview', async (c) => {
    const fields = await readForm(c);
    const html = await Preview({ preview: await previewOf(c, fields.dataModelId ?? '', fields.template ?? '') });
    return c.html(html);
  });

  app.post('/templates/new', async (c) => {
    const fields = await readForm(c);
    if (c.req.query('preview')) return renderList(c, fields);
    const parsed = CreateRenderTemplateBody.safeParse({
      name: fields.name ?? '',
      dataModelId: fields.dataModelId ?? '',
      renderMethodType: fields.renderMethodType,
      template: fields.template ?? '',
      isDefault: fields.isDefault === 'true',
    });
    if (!parsed.success) return renderList(c, fields, zodErrors(parsed.error.issues), 400);
    try {
      const { storageUrl: _a, digestMultibase: _b, hash: _c, ...input } = parsed.data;
      const row = await createTemplate(depsOf(c), tenantOf(c), input);
      return c.redirect(`/console/templates/${row.id}`, 303);
    } catch (error) {
      const { errors, status } = formErrors(error);
      return renderList(c, fields, errors, status);
    }
  });

  app.get('/templates/:id', async (c) => renderTemplatePage(c, await loadTemplate(c)));

  app.post('/templates/:id', async (c) => {
    const row = await loadTemplate(c);
    const fields = await readForm(c);
    if (c.req.query('preview')) return renderTemplatePage(c, row, fields);
    const parsed = UpdateRenderTemplateBody.safeParse({ name: fields.name ?? '', template: fields.template ?? '' });
    if (!parsed.success) return renderTemplatePage(c, row, fields, zodErrors(parsed.error.issues), 400);
    try {
      await updateTemplate(depsOf(c), tenantOf(c), row.id, { name: parsed.data.name, template: parsed.data.template });
    } catch (error) {
      const { errors, status } = formErrors(error);
      return renderTemplatePage(c, row, fields, errors, status);
    }
    return c.redirect(`/console/templates/${row.id}`, 303);
  });

  app.post('/templates/:id/default', async (c) => {
    const row = await updateTemplate(depsOf(c), tenantOf(c), (await loadTemplate(c)).id, { isDefault: true });
    return c.redirect(`/console/templates/${row.id}`, 303);
  });
};
