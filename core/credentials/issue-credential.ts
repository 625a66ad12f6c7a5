import { adapterFailure } from '../adapters/adapter-failure.ts';
import type { StoredDocument } from '../adapters/storage/storage-adapter.ts';
import { vcAdapterFor } from '../dids/vc-instance.ts';
import { attachClaimRecord } from '../idempotency/idempotency-claims.ts';
import { resolveStorageInstance, storageAdapterFor } from '../service-instances/storage-instance.ts';
import type { IssuanceWarning } from './conformity-warnings.ts';
import { coreTypeOf, extractCredentialDetails } from './credential-details.ts';
import { insertIssuedCredential, markPublished } from './credential-repository.ts';
import { resolveEntityLinks, type EntityLinks } from './entity-links.ts';
import { resolveIssuanceDataModel } from './issuance-data-model.ts';
import type { IssuanceDeps } from './issuance-deps.ts';
import { markDispatched } from './issuance-fault.ts';
import type { IssuanceRequest } from './issuance-request.ts';
import { resolveIssuer } from './issuer-did.ts';
import { validateCredentialPayload } from './payload-validation.ts';
import { publishCredential } from './publish-credential.ts';
import { signWithStatus, type SignedCredential } from './sign-credential.ts';

export interface IssueResult {
  credentialId: string;
  warnings: IssuanceWarning[];
}

const STORAGE_FIELD = 'storageOptions.serviceInstanceId';

/** Entity links never block issuance: a failure to resolve them is a warning and no links. */
const entityLinksOrWarning = async (deps: IssuanceDeps, tenantId: string, payload: Record<string, unknown>, warnings: IssuanceWarning[]): Promise<EntityLinks> => {
  try {
    return await resolveEntityLinks(deps.db, tenantId, payload);
  } catch (error) {
    deps.logger.warn('Entity links of an issued credential could not be resolved', { correlationId: deps.correlationId, error: String(error) });
    warnings.push({ code: 'ENTITY_LINK_FAILED', message: 'The credential could not be linked to its product, facility or organisation' });
    return { productId: null, facilityId: null, organisationId: null };
  }
};

/** What an operator needs to find a credential that was signed but is not recorded here. */
const signedTrace = (deps: IssuanceDeps, issuerDid: string, vcServiceInstanceId: string, signed: SignedCredential) => ({
  correlationId: deps.correlationId,
  issuerDid,
  vcServiceInstanceId,
  statusEntries: signed.statusEntries.map((e) => `${e.statusPurpose} ${e.statusListCredential}#${e.statusListIndex}`),
});

/**
 * Issues one credential (issue 14 §1; peer §1.3), in order: the data model of the type and version,
 * the payload against its schemas and JSON-LD contexts (conformity warnings for DCC 0.7.0), the
 * issuer DID and its VC service, the storage instance; then status entries are minted, the credential
 * signed, stored (encrypted unless asked not to; the key kept sealed), and recorded with its status
 * entries and entity links in one transaction; then, if asked, published to the IDR (failures are
 * warnings). Everything that can be refused is refused before the VC service signs. An error after
 * the sign request is marked dispatched (`issuance-fault.ts`); a credential signed but not recorded
 * leaves a warn log line, and a stored copy whose record could not be written is removed.
 */
export const issueCredential = async (
  deps: IssuanceDeps,
  tenantId: string,
  request: IssuanceRequest,
  options: { idempotencyClaimId?: string } = {},
): Promise<IssueResult> => {
  const payload = request.credentialPayload;
  const dataModel = await resolveIssuanceDataModel(deps.db, tenantId, request.credentialType, request.version);
  const { warnings } = await validateCredentialPayload({ db: deps.db, payloadChecks: deps.payloadChecks }, { tenantId, dataModel, payload });
  const issuer = await resolveIssuer(deps.db, tenantId, payload);
  const storageInstance = await resolveStorageInstance(deps.db, tenantId, request.storage.serviceInstanceId, STORAGE_FIELD);
  const entities = await entityLinksOrWarning(deps, tenantId, payload, warnings);
  const { adapter: vc } = await vcAdapterFor(deps, issuer.instance);
  const storage = await storageAdapterFor(deps, storageInstance.configEncrypted);

  let dispatched = false;
  let signed: SignedCredential;
  try {
    signed = await signWithStatus(vc, { issuerDid: issuer.did, payload, purposes: request.statusPurposes, onDispatch: () => (dispatched = true) });
  } catch (error) {
    const failure = adapterFailure(error, { logger: deps.logger, correlationId: deps.correlationId, action: 'sign the credential' });
    throw dispatched ? markDispatched(failure) : failure;
  }
  const trace = signedTrace(deps, issuer.did, issuer.instance.id, signed);

  const encrypted = request.storage.encrypt;
  const externalId = crypto.randomUUID();
  let stored: StoredDocument;
  try {
    stored = await storage.storeJson(signed.enveloped as unknown as Record<string, unknown>, { encrypt: encrypted, id: externalId });
  } catch (error) {
    deps.logger.warn('A credential was signed but could not be stored; it is not recorded', trace);
    throw markDispatched(adapterFailure(error, { logger: deps.logger, correlationId: deps.correlationId, action: 'store the credential' }));
  }

  let credentialId: string;
  try {
    const { details, problems } = extractCredentialDetails(signed.decoded);
    if (problems.length) warnings.push({ code: 'DETAILS_EXTRACTION_FAILED', message: `Some details of the credential could not be read: ${problems.join('; ')}` });
    const wrappedDecryptionKey = stored.decryptionKey ? await deps.box.encrypt(stored.decryptionKey) : null;
    credentialId = await deps.db.transaction(async (tx) => {
      const id = await insertIssuedCredential(tx, {
        tenantId,
        credentialType: request.credentialType,
        version: request.version,
        dataModelId: dataModel.id,
        coreCredentialType: coreTypeOf(dataModel.core.credentialType),
        coreVersion: dataModel.core.version,
        details,
        detailsError: problems.length ? problems.join('; ') : null,
        entities: { productId: entities.productId, facilityId: entities.facilityId, organisationId: entities.organisationId },
        tags: request.tags,
        issuerDid: issuer.did,
        vcServiceInstanceId: issuer.instance.id,
        storageServiceInstanceId: storageInstance.id,
        storageUri: stored.uri,
        storageExternalId: externalId,
        digestMultibase: stored.digestMultibase,
        encrypted,
        wrappedDecryptionKey,
        statusEntries: signed.statusEntries,
      });
      if (options.idempotencyClaimId) await attachClaimRecord(tx, options.idempotencyClaimId, id);
      return id;
    });
  } catch (error) {
    deps.logger.warn('A credential was signed and stored but could not be recorded; removing the stored copy', { ...trace, storageUri: stored.uri });
    try {
      await storage.delete(externalId, { encrypted });
    } catch (cleanup) {
      deps.logger.warn('The stored copy of an unrecorded credential could not be removed', { ...trace, storageUri: stored.uri, error: String(cleanup) });
    }
    throw markDispatched(error);
  }

  if (request.publishing?.publish) {
    const published = await publishCredential(deps, {
      tenantId,
      options: request.publishing,
      entities,
      dataModelName: dataModel.name,
      stored: { uri: stored.uri, digestMultibase: stored.digestMultibase, encrypted },
      appUrl: deps.appUrl,
    });
    warnings.push(...published.warnings);
    if (published.resolverUri !== undefined) {
      try {
        await markPublished(deps.db, tenantId, credentialId, published.resolverUri);
      } catch (error) {
        deps.logger.warn('Published links of a credential could not be recorded on it', { correlationId: deps.correlationId, credentialId, error: String(error) });
        warnings.push({ code: 'DB_STATUS_UPDATE_FAILED', message: 'The links were published but the credential record does not show it' });
      }
    }
  }
  return { credentialId, warnings };
};
