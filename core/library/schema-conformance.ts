import type { Queryable } from '../../db/client.ts';
import type { CheckResult } from '../../db/schema/index.ts';
import { resolveIssuanceDataModel } from '../credentials/issuance-data-model.ts';
import { PAYLOAD_FIELD } from '../credentials/payload-errors.ts';
import type { PayloadChecks } from '../credentials/payload-validation.ts';
import { ApiError } from '../errors.ts';
import type { RecordView } from './record-queries.ts';

/** The UNTP version a credential's contexts name (`…/untp/0.7.0/context/`, `…/untp/dpp/0.6.1/`). */
const UNTP_CONTEXT_VERSION = /\/untp\/(?:[a-z]+\/)?(\d+\.\d+\.\d+)\//;

const versionOf = (credential: Record<string, unknown>): string | undefined => {
  const contexts = Array.isArray(credential['@context']) ? credential['@context'] : [credential['@context']];
  for (const context of contexts) {
    const match = typeof context === 'string' ? UNTP_CONTEXT_VERSION.exec(context) : null;
    if (match) return match[1];
  }
  return undefined;
};

/** The data model to judge a credential by: the one it was issued with, else its core type at the version its contexts name. */
const dataModelOf = async (db: Queryable, tenantId: string, view: RecordView, credential: Record<string, unknown>) => {
  const type = view.native?.credentialType ?? view.record.coreCredentialType;
  const version = view.native?.version ?? versionOf(credential);
  if (!type || !version) return undefined;
  try {
    return await resolveIssuanceDataModel(db, tenantId, type, version);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'DATA_MODEL_NOT_FOUND') return undefined;
    throw error;
  }
};

/**
 * The seventh check, advisory (it never blocks): the decoded credential against every schema of its
 * data model, as issuance checks a payload. No data model to judge by, or a schema that cannot be
 * fetched, leaves it not_run; a refusal is `fail` with the first problem, named from `credential`.
 */
export const checkSchemaConformance = async (
  deps: { db: Queryable; payloadChecks: PayloadChecks },
  tenantId: string,
  view: RecordView,
  credential: Record<string, unknown>,
): Promise<{ result: CheckResult; message?: string }> => {
  const model = await dataModelOf(deps.db, tenantId, view, credential);
  if (!model) return { result: 'not_run' };
  try {
    await deps.payloadChecks.validateSchemas(credential, model.schemaUrls);
    return { result: 'pass' };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.code !== 'SCHEMA_DOCUMENT_INVALID') return { result: 'not_run' };
    return { result: 'fail', message: `credential${error.message.slice(PAYLOAD_FIELD.length)}` };
  }
};
