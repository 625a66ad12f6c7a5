import { refusedByDatabase } from '../db-errors.ts';
import { ApiError } from '../errors.ts';
import { metrics, type Steps } from '../metrics/recorder.ts';
import { timedStep } from '../metrics/timed-step.ts';
import { inSpan } from '../tracing/trace-context.ts';
import type { Queryable } from '../../db/client.ts';
import { upstreamDidNothing } from '../adapters/adapter-errors.ts';
import { adapterFailure } from '../adapters/adapter-failure.ts';
import type { StoredDocument } from '../adapters/storage/storage-adapter.ts';
import type { StatusEntry } from '../adapters/vc/vc-adapter.ts';
import { vcAdapterFor } from '../dids/vc-instance.ts';
import { attachClaimRecord } from '../idempotency/idempotency-claims.ts';
import { resolveStorageInstance, storageAdapterFor } from '../service-instances/storage-instance.ts';
import type { IssuanceWarning } from './conformity-warnings.ts';
import { coreTypeOf, extractCredentialDetails } from './credential-details.ts';
import { validityWarnings } from './validity-warnings.ts';
import { insertIssuedCredential, markPublished, newCredentialId } from './credential-repository.ts';
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
const entityLinksOrWarning = async (deps: IssuanceDeps, tenantId: string, payload: Record<string, unknown>): Promise<{ entities: EntityLinks; warning?: IssuanceWarning }> => {
  try {
    return { entities: await resolveEntityLinks(deps.db, tenantId, payload) };
  } catch (error) {
    deps.logger.warn('Entity links of an issued credential could not be resolved', { correlationId: deps.correlationId, error: String(error) });
    return {
      entities: { productId: null, facilityId: null, organisationId: null },
      warning: { code: 'ENTITY_LINK_FAILED', message: 'The credential could not be linked to its product, facility or organisation' },
    };
  }
};

const inStep = <T>(step: Steps['issuance'], fn: () => Promise<T>): Promise<T> => timedStep('issuance', step, fn);

/** A read started before its turn: its failure is marked handled now and thrown only where it is awaited. */
const startedEarly = <T>(read: Promise<T>): Promise<T> => {
  read.catch(() => {});
  return read;
};

const entryNames = (entries: StatusEntry[]) => entries.map((e) => `${e.statusPurpose} ${e.statusListCredential}#${e.statusListIndex}`);

/** What an operator needs to find a credential that was signed but is not recorded here. */
const signedTrace = (deps: IssuanceDeps, issuerDid: string, vcServiceInstanceId: string, signed: SignedCredential) => ({
  correlationId: deps.correlationId,
  issuerDid,
  vcServiceInstanceId,
  statusEntries: entryNames(signed.statusEntries),
});

/**
 * An attempt whose outcome is known to be nothing (decisions "Known and unknown outcomes"): the
 * entries it minted belong to no credential. They are recorded as unused here (the log line an
 * operator or the orphan sweep reads); a bit never set on them harms no one.
 */
const recordUnusedEntries = (deps: IssuanceDeps, issuerDid: string, entries: StatusEntry[], why: string) => {
  if (entries.length === 0) return;
  deps.logger.warn('Status entries left unused', { correlationId: deps.correlationId, issuerDid, why, statusEntries: entryNames(entries) });
};

/** What issuance has read and checked before it sends anything anywhere (`prepareIssuance`). */
export interface PreparedIssuance {
  dataModel: Awaited<ReturnType<typeof resolveIssuanceDataModel>>;
  warnings: IssuanceWarning[];
  issuer: Awaited<ReturnType<typeof resolveIssuer>>;
  storageInstance: Awaited<ReturnType<typeof resolveStorageInstance>>;
  entities: EntityLinks;
  vc: Awaited<ReturnType<typeof vcAdapterFor>>['adapter'];
  storage: Awaited<ReturnType<typeof storageAdapterFor>>;
}

interface IssueOptions {
  idempotencyClaimId?: string;
  /**
   * Runs inside the transaction that writes the record, sent with it (not after it: it must not need the
   * record's row): a caller (a batch item) settles its own row with it.
   */
  onRecorded?: (tx: Queryable, credentialId: string) => Promise<void>;
}

/**
 * The steps of issuance up to the adapters: reads and checks only (a context or schema not cached yet may be
 * fetched), no service called and nothing written, so a batch may run them for its next item while the current one is signed
 * (every refusal of issuance is thrown here or by the VC service).
 */
export const prepareIssuance = async (deps: IssuanceDeps, tenantId: string, request: IssuanceRequest): Promise<PreparedIssuance> => {
  const payload = request.credentialPayload;
  // The reads that depend on nothing else go to the database together; their verdicts are taken in the
  // order of the steps, so a request with several faults is answered as if they had run one by one.
  const dataModelRead = resolveIssuanceDataModel(deps.db, tenantId, request.credentialType, request.version);
  const issuerRead = startedEarly(resolveIssuer(deps.db, tenantId, payload));
  const storageRead = startedEarly(resolveStorageInstance(deps.db, tenantId, request.storage.serviceInstanceId, STORAGE_FIELD));
  const entitiesRead = entityLinksOrWarning(deps, tenantId, payload);
  const dataModel = await dataModelRead;
  const { warnings } = await inStep('validate', () => validateCredentialPayload({ db: deps.db, payloadChecks: deps.payloadChecks }, { tenantId, dataModel, payload }));
  warnings.push(...validityWarnings(payload));
  const issuer = await issuerRead;
  const storageInstance = await storageRead;
  const { entities, warning: entitiesWarning } = await entitiesRead;
  if (entitiesWarning) warnings.push(entitiesWarning);
  const { adapter: vc } = await vcAdapterFor(deps, issuer.instance);
  const storage = await storageAdapterFor(deps, storageInstance.configEncrypted);
  return { dataModel, warnings, issuer, storageInstance, entities, vc, storage };
};

/** The steps of issuance from minting status entries on (see issueCredentialSteps). */
const completeIssuance = async (
  deps: IssuanceDeps,
  tenantId: string,
  request: IssuanceRequest,
  { dataModel, warnings, issuer, storageInstance, entities, vc, storage }: PreparedIssuance,
  options: IssueOptions,
): Promise<IssueResult> => {
  const payload = request.credentialPayload;
  let dispatched = false;
  const minted: StatusEntry[] = [];
  let signed: SignedCredential;
  try {
    signed = await inStep('sign', () =>
      signWithStatus(vc, {
        issuerDid: issuer.did,
        payload,
        purposes: request.statusPurposes,
        onDispatch: () => (dispatched = true),
        onMinted: (entry) => minted.push(entry),
      }),
    );
  } catch (error) {
    const failure = adapterFailure(error, { logger: deps.logger, correlationId: deps.correlationId, action: 'sign the credential' });
    // Refused, or the VC service answered an error: nothing was signed, the attempt is a plain fault.
    if (!dispatched || upstreamDidNothing(error)) {
      recordUnusedEntries(deps, issuer.did, minted, 'nothing was signed');
      throw failure;
    }
    throw markDispatched(failure);
  }
  const trace = signedTrace(deps, issuer.did, issuer.instance.id, signed);

  const encrypted = request.storage.encrypt;
  const externalId = crypto.randomUUID();
  let stored: StoredDocument;
  try {
    stored = await inStep('store', () => storage.storeJson(signed.enveloped as unknown as Record<string, unknown>, { encrypt: encrypted, id: externalId }));
  } catch (error) {
    const failure = adapterFailure(error, { logger: deps.logger, correlationId: deps.correlationId, action: 'store the credential' });
    // Refused, or the storage service answered an error: nothing was stored, and the signed copy
    // exists only here. It is discarded and the attempt is a plain fault, retried like any other.
    if (upstreamDidNothing(error)) {
      deps.logger.warn('A signed credential was discarded: the storage service stored nothing', trace);
      recordUnusedEntries(deps, issuer.did, signed.statusEntries, 'the signed credential was discarded');
      throw failure;
    }
    deps.logger.warn('A credential was signed but could not be stored; it is not recorded', trace);
    throw markDispatched(failure);
  }

  const keyInLink = request.publishing?.humanLinkIncludesKey === true && stored.decryptionKey !== undefined;
  let credentialId: string;
  try {
    const { details, problems } = extractCredentialDetails(signed.decoded);
    if (problems.length) warnings.push({ code: 'DETAILS_EXTRACTION_FAILED', message: `Some details of the credential could not be read: ${problems.join('; ')}` });
    const wrappedDecryptionKey = stored.decryptionKey ? await deps.box.encrypt(stored.decryptionKey) : null;
    const id = newCredentialId();
    const record = async (tx: Queryable) => {
      const written = insertIssuedCredential(tx, id, {
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
        humanLinkIncludesKey: keyInLink,
        statusEntries: signed.statusEntries,
      });
      // A caller's writes need only the record's id (a batch item's credentialId is no foreign key): they are
      // sent with the record, one round trip fewer; a failure of either fails the transaction. The claim
      // names the record by a foreign key: it follows it.
      await Promise.all([written, options.onRecorded?.(tx, id)]);
      if (options.idempotencyClaimId) await attachClaimRecord(tx, options.idempotencyClaimId, id);
      return id;
    };
    // The record is one statement (all or nothing): a transaction only when a claim or a caller's row is written with it.
    const alone = options.idempotencyClaimId === undefined && options.onRecorded === undefined;
    credentialId = await inStep('record', () => (alone ? record(deps.db) : deps.db.transaction(record)));
  } catch (error) {
    deps.logger.warn('A credential was signed and stored but could not be recorded; removing the stored copy', { ...trace, storageUri: stored.uri });
    let removed = false;
    try {
      await storage.delete(externalId, { encrypted });
      removed = true;
    } catch (cleanup) {
      deps.logger.warn('The stored copy of an unrecorded credential could not be removed', { ...trace, storageUri: stored.uri, error: String(cleanup) });
    }
    // PostgreSQL refused the record (nothing committed) and the stored copy is gone: the outcome is known, nothing
    // issued, and the attempt is a plain fault like one the storage service refused. Otherwise it may exist.
    if (removed && refusedByDatabase(error)) {
      recordUnusedEntries(deps, issuer.did, signed.statusEntries, 'the credential could not be recorded');
      throw error;
    }
    throw markDispatched(error);
  }

  const publishing = request.publishing;
  if (publishing?.publish) {
    const published = await inStep('publish', () => publishCredential(deps, {
      tenantId,
      options: publishing,
      entities,
      dataModelName: dataModel.name,
      coreCredentialType: coreTypeOf(dataModel.core.credentialType),
      stored: { uri: stored.uri, digestMultibase: stored.digestMultibase, encrypted, ...(keyInLink ? { decryptionKey: stored.decryptionKey } : {}) },
      appUrl: deps.appUrl,
    }));
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

/**
 * Issues one credential (issue 14 §1; peer §1.3), in order: the data model of the type and version,
 * the payload against its schemas and JSON-LD contexts (conformity warnings for DCC 0.7.0), the
 * issuer DID and its VC service, the storage instance (those reads are made together, their verdicts
 * taken in this order); then status entries are minted, the credential
 * signed, stored (encrypted unless asked not to; the key kept sealed), and recorded with its status
 * entries and entity links in one transaction; then, if asked, published to the IDR (failures are
 * warnings). Everything that can be refused is refused before the VC service signs. An error after
 * the sign request is marked dispatched (`issuance-fault.ts`) unless its outcome is known to be
 * nothing (the VC or storage service refused the connection or answered an error: the signed copy is
 * discarded, its status entries logged as unused); a credential signed but not recorded leaves a warn
 * log line, and a stored copy whose record could not be written is removed.
 */
const issueCredentialSteps = async (deps: IssuanceDeps, tenantId: string, request: IssuanceRequest, options: IssueOptions = {}): Promise<IssueResult> =>
  completeIssuance(deps, tenantId, request, await prepareIssuance(deps, tenantId, request), options);

/** Counted for `/metrics` by outcome, and logged at info once recorded (ids only, never the payload). */
const counted = async (deps: IssuanceDeps, tenantId: string, request: IssuanceRequest, steps: () => Promise<IssueResult>): Promise<IssueResult> => {
  try {
    const result = await inSpan('issuance', steps, { 'css.credential_type': request.credentialType });
    metrics().issuance(request.credentialType, 'issued');
    deps.logger.info('Credential issued', { correlationId: deps.correlationId, tenantId, credentialId: result.credentialId, credentialType: request.credentialType });
    return result;
  } catch (error) {
    metrics().issuance(request.credentialType, error instanceof ApiError && error.status < 500 ? 'refused' : 'failed');
    throw error;
  }
};

export const issueCredential: typeof issueCredentialSteps = (deps, tenantId, request, options = {}) =>
  counted(deps, tenantId, request, () => issueCredentialSteps(deps, tenantId, request, options));

/**
 * Issues from steps prepared earlier (`prepareIssuance`, started before the caller's turn; its
 * refusal or fault is thrown here): the same steps, counts and log line as issueCredential.
 */
export const issuePrepared = (deps: IssuanceDeps, tenantId: string, request: IssuanceRequest, prepared: Promise<PreparedIssuance>, options: IssueOptions = {}): Promise<IssueResult> =>
  counted(deps, tenantId, request, async () => completeIssuance(deps, tenantId, request, await prepared, options));
