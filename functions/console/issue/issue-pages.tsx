import type { Context, Hono } from 'hono';
import { PayloadInputError } from '../../../core/console/payload-from-master-data.ts';
import { findCredential } from '../../../core/credentials/credential-repository.ts';
import { issuanceDeps } from '../../../core/credentials/issuance-deps.ts';
import { parseIssuanceRequest } from '../../../core/credentials/issuance-request.ts';
import { issueOnce } from '../../../core/credentials/issue-once.ts';
import { ApiError, notFound } from '../../../core/errors.ts';
import { readIdempotencyKey } from '../../../core/idempotency/idempotency-key.ts';
import { qrCodeSvg } from '../../../core/qr/qr-code.ts';
import { readPublishedTemplate } from '../../../core/render-templates/published-template.ts';
import { renderTemplate } from '../../../core/render-templates/template-engine.js';
import { toCredentialResponse } from '../../credentials/schemas.ts';
import type { ConsoleEnv } from '../console-env.ts';
import { CredentialFacts } from '../credentials/credential-view.tsx';
import { fieldOfMessage, optional, readForm } from '../form-fields.ts';
import { Actions } from '../form-controls.tsx';
import { CsrfField, renderPage } from '../layout.tsx';
import { buildFromChoices, choiceFieldsFor } from './issue-choices.ts';
import { renderIssueForm, renderModelChoice } from './issue-form.tsx';

/** The choices a preview carries on to the issue step, by the posted model (the payload is rebuilt from them, never posted). */
const choiceFields = (built: { model: { credentialType: string; version: string } }) => choiceFieldsFor(built.model.credentialType, built.model.version);

/** The chosen template applied to the payload, for the preview frame (sandboxed, no scripts). */
const renderedWith = async (c: Context<ConsoleEnv>, template: { storageUrl: string; digestMultibase: string } | undefined, payload: unknown) => {
  if (!template) return undefined;
  const services = c.get('services');
  const html = await readPublishedTemplate({ db: services.db, fetcher: services.fetcher, logger: services.logger, correlationId: c.get('correlationId') }, template.storageUrl, template.digestMultibase);
  return renderTemplate(html, payload);
};

const RenderedFrame = (props: { html: string | undefined }) =>
  props.html === undefined ? (
    <p class="hint">No render template chosen: the verify page shows the credential's data.</p>
  ) : (
    <iframe class="rendered" sandbox="" srcdoc={props.html} title="The credential as its render template shows it"></iframe>
  );

/** A refusal of the form's own choices goes back to the form, beside the field it names. */
const backToForm = (c: Context<ConsoleEnv>, fields: Record<string, string>, error: PayloadInputError | ApiError) => {
  const named = fieldOfMessage(error.message);
  const errors = named && named.field in fields ? { [named.field]: named.problem } : named && error instanceof PayloadInputError ? { [named.field]: named.problem, _form: error.message } : { _form: error.message };
  return renderIssueForm(c, fields.dataModelId ?? '', fields, errors, 400);
};

const isFormProblem = (error: unknown): error is PayloadInputError | ApiError =>
  error instanceof PayloadInputError || (error instanceof ApiError && error.status === 400);

export const registerIssuePages = (app: Hono<ConsoleEnv>) => {
  app.get('/issue', (c) => {
    const { dataModelId, ...values } = c.req.query();
    return dataModelId ? renderIssueForm(c, dataModelId, values) : renderModelChoice(c);
  });

  // The form again with the posted choices: a dependent picker (a scheme's profiles) follows the choice it depends on.
  app.post('/issue/choices', async (c) => {
    const fields = await readForm(c);
    return renderIssueForm(c, fields.dataModelId ?? '', fields);
  });

  app.post('/issue/preview', async (c) => {
    const fields = await readForm(c);
    let built;
    try {
      built = await buildFromChoices(c.get('services'), c.get('principal').tenantId, fields);
    } catch (error) {
      if (isFormProblem(error)) return backToForm(c, fields, error);
      throw error;
    }
    const rendered = await renderedWith(c, built.template, built.payload);
    const keys = choiceFields(built);
    const back = new URLSearchParams(keys.flatMap((k) => (fields[k] ? [[k, fields[k]]] : [])));
    return renderPage(
      c,
      'Check what will be signed',
      <>
        <p>
          {built.model.name} ({built.model.credentialType} {built.model.version}), stored {fields.encrypt === 'true' ? 'encrypted' : 'in the clear'}.
        </p>
        <h2>As it will be shown</h2>
        <RenderedFrame html={rendered} />
        <details>
          <summary>Show the JSON that will be signed</summary>
          <pre id="payload-json">{JSON.stringify(built.payload, null, 2)}</pre>
        </details>
        <form method="post" action="/console/issue">
          <CsrfField token={c.get('csrfToken')} />
          {keys.map((k) => (fields[k] !== undefined ? <input type="hidden" name={k} value={fields[k]} /> : null))}
          <input type="hidden" name="idempotencyKey" value={crypto.randomUUID()} />
          <Actions>
            <button type="submit">Issue the credential</button>
            <a class="button secondary" href={`/console/issue?${back}`}>Change the choices</a>
          </Actions>
        </form>
      </>,
    );
  });

  app.post('/issue', async (c) => {
    const fields = await readForm(c);
    const services = c.get('services');
    const tenantId = c.get('principal').tenantId;
    let built;
    try {
      built = await buildFromChoices(services, tenantId, fields);
    } catch (error) {
      if (isFormProblem(error)) return backToForm(c, fields, error);
      throw error;
    }
    const body = {
      credentialType: built.model.credentialType,
      version: built.model.version,
      credentialPayload: built.payload,
      storageOptions: { encrypt: fields.encrypt === 'true' },
    };
    const request = parseIssuanceRequest(body, services.settings.issuance);
    const key = optional(fields, 'idempotencyKey');
    // The same preview submitted twice (a double click, a resend) issues once: its key names the choices.
    const idempotency = key === undefined ? undefined : { key: readIdempotencyKey(key)!, body: Object.fromEntries(choiceFields(built).map((k) => [k, fields[k] ?? null])), staleAfterMinutes: services.settings.idempotencyStaleClaimMinutes };
    const answer = await issueOnce(issuanceDeps(services, c.get('correlationId')), tenantId, request, idempotency);
    return renderIssued(c, answer.credentialId, answer.warnings ?? [], await renderedWith(c, built.template, built.payload));
  });
};

/** The result: the credential rendered, its QR code, verify link, key and warnings. */
const renderIssued = async (c: Context<ConsoleEnv>, id: string, warnings: { code: string; message: string }[], rendered: string | undefined) => {
  const { db, secretBox, settings } = c.get('services');
  const row = await findCredential(db, c.get('principal').tenantId, id);
  if (!row) throw notFound('Credential');
  const key = row.credential.wrappedDecryptionKey ? await secretBox.decrypt(row.credential.wrappedDecryptionKey) : null;
  const view = toCredentialResponse(row, key, settings.appUrl);
  return renderPage(
    c,
    'Credential issued',
    <>
      <p class="notice good" role="status">
        The credential was signed and stored. <a href={`/console/credentials/${view.id}`}>Its page</a> lists it with your other credentials.
      </p>
      <RenderedFrame html={rendered} />
      <CredentialFacts view={view} qrSvg={await qrCodeSvg(view.verifyUrl, { size: 256 })} warnings={warnings} />
    </>,
    201,
  );
};
