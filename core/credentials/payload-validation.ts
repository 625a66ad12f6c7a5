import type { Queryable } from '../../db/client.ts';
import { badRequest } from '../errors.ts';
import type { Fetcher } from '../net/fetcher.ts';
import type { DocumentSettings } from '../settings/document-settings.ts';
import { createBundledArtefacts, type BundledArtefacts } from './bundled-artefacts.ts';
import { conformityWarnings, hasConformityChecks, type IssuanceWarning } from './conformity-warnings.ts';
import { createDocumentSource, type DocumentSource } from './document-source.ts';
import type { JsonLdExpansion } from './jsonld-expansion.ts';
import { createJsonLdCheck } from './jsonld-verdict-cache.ts';
import { PAYLOAD_FIELD } from './payload-errors.ts';
import { createSchemaValidation } from './schema-validation.ts';

/** A data model as issuance uses it: its schemas (an extension's parent's first) and its core type/version. */
export interface ResolvedDataModel {
  credentialType: string;
  version: string;
  schemaUrls: string[];
  core: { credentialType: string; version: string };
}

interface DataModelFields {
  credentialType: string;
  version: string;
  schemaUrl: string;
}

/** A core model stands alone; an extension validates against its parent's schema and its own. */
export const resolvedDataModel = (model: DataModelFields, parent?: DataModelFields | null): ResolvedDataModel => ({
  credentialType: model.credentialType,
  version: model.version,
  schemaUrls: parent ? [...new Set([parent.schemaUrl, model.schemaUrl])] : [model.schemaUrl],
  core: parent ? { credentialType: parent.credentialType, version: parent.version } : { credentialType: model.credentialType, version: model.version },
});

/**
 * JSON-LD expansion (jsonld-expansion.ts: jsonld.js and our context caches, ~80 KB minified) imported on the first
 * expansion, not with this module: the verdict cache (jsonld-verdict-cache.ts) answers a payload of a shape that
 * already expanded without it, and an edge bundle carries it as a module of its own, loaded only when a payload
 * must really be expanded (scripts/edge-bundle.ts splits it off). The same expansion either way.
 */
const expansionOnFirstUse = (documents: DocumentSource, settings: DocumentSettings): JsonLdExpansion => {
  let loading: Promise<JsonLdExpansion> | undefined;
  return async (payload) => {
    loading ??= import('./jsonld-expansion.ts').then(
      ({ createJsonLdExpansion }) => createJsonLdExpansion(documents, settings),
      (error: unknown) => {
        loading = undefined; // the next expansion tries again
        throw error;
      },
    );
    return (await loading)(payload);
  };
};

/**
 * The long-lived part of payload validation: document caches, compiled schemas, processed contexts
 * and the shapes that expanded. Build one per process (web or worker) and hand it to every issuance.
 * `expand` always expands; `checkJsonLd` is the same verdict, remembered by shape (jsonld-verdict-cache.ts).
 */
export const createPayloadChecks = (fetcher: Fetcher, settings: DocumentSettings, bundled: BundledArtefacts = createBundledArtefacts()) => {
  const documents = createDocumentSource(fetcher, settings, bundled);
  const expand = expansionOnFirstUse(documents, settings);
  return { validateSchemas: createSchemaValidation(documents), expand, checkJsonLd: createJsonLdCheck(documents, settings, expand) };
};

export type PayloadChecks = ReturnType<typeof createPayloadChecks>;

/**
 * Step 3 of issuance (and 3.5): the payload must satisfy every schema of the data model, then expand as
 * JSON-LD with every term defined; a DCC 0.7.0 is then checked against the conformity catalogue.
 * Returns the advisory warnings, or throws a 400 ApiError with a stable code whose message starts with
 * the failing place (`credentialPayload/credentialSubject/name: …`).
 */
export const validateCredentialPayload = async (
  deps: { db: Queryable; payloadChecks: PayloadChecks },
  input: { tenantId: string; dataModel: ResolvedDataModel; payload: unknown },
): Promise<{ warnings: IssuanceWarning[] }> => {
  const { payload, dataModel } = input;
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) throw badRequest(`${PAYLOAD_FIELD}: must be a JSON object`);
  await deps.payloadChecks.validateSchemas(payload, dataModel.schemaUrls);
  await deps.payloadChecks.checkJsonLd(payload);
  const warnings = hasConformityChecks(dataModel.core) ? await conformityWarnings(deps.db, input.tenantId, payload) : [];
  return { warnings };
};
