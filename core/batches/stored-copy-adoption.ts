import { and, eq } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import { credentials } from '../../db/schema/credentials.ts';
import { hexHashToMultibase } from '../adapters/storage/storage-adapter.ts';
import type { StatusEntry } from '../adapters/vc/vc-adapter.ts';
import { base64UrlToBytes, sha256Hex } from '../crypto/encoding.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import { coreTypeOf, extractCredentialDetails } from '../credentials/credential-details.ts';
import { insertIssuedCredential, newCredentialId } from '../credentials/credential-repository.ts';
import { resolveEntityLinks, type EntityLinks } from '../credentials/entity-links.ts';
import { resolveIssuanceDataModel } from '../credentials/issuance-data-model.ts';
import { parseIssuanceRequest } from '../credentials/issuance-request.ts';
import { issuerOf, resolveIssuer } from '../credentials/issuer-did.ts';
import type { Fetcher } from '../net/fetcher.ts';
import type { IssuanceSettings } from '../settings/issuance-settings.ts';
import { discloseItemRequest, inspectItem } from './item-inspection.ts';
import { resolveItem, type AdoptionRefusal, type ItemResolution, type ResolutionResult } from './item-resolution.ts';
import { traceCorrelation } from './item-trace.ts';

export interface Adoption extends Omit<ItemResolution, 'finding'> {
  /** The issuance settings the item's request is read with (as the worker read it). */
  issuance: IssuanceSettings;
}

export type AdoptionResult = ResolutionResult & {
  /** The stored copy found (adopted, or refused with stored-copy-mismatch), and its payload digest. */
  copy?: { uri: string; payloadDigest?: string };
};

const NO_LINKS: EntityLinks = { productId: null, facilityId: null, organisationId: null };

/** The credential and its exact payload text inside a stored enveloped VC-JOSE copy, or undefined. */
const openEnvelope = (bytes: Uint8Array): { payloadText: string; decoded: Record<string, unknown> } | undefined => {
  try {
    const enveloped = JSON.parse(new TextDecoder().decode(bytes)) as { id?: unknown };
    if (typeof enveloped?.id !== 'string' || !enveloped.id.startsWith('data:application/vc+jwt,')) return undefined;
    const payload = enveloped.id.slice(enveloped.id.indexOf(',') + 1).split('.')[1];
    if (!payload) return undefined;
    const payloadText = new TextDecoder().decode(base64UrlToBytes(payload));
    const decoded: unknown = JSON.parse(payloadText);
    return decoded && typeof decoded === 'object' && !Array.isArray(decoded) ? { payloadText, decoded: decoded as Record<string, unknown> } : undefined;
  } catch {
    return undefined;
  }
};

const statusEntriesOf = (decoded: Record<string, unknown>): StatusEntry[] =>
  decoded.credentialStatus === undefined ? [] : ((Array.isArray(decoded.credentialStatus) ? decoded.credentialStatus : [decoded.credentialStatus]) as StatusEntry[]);

/** The credential issuance would have signed for this request with these status entries (sign-credential.ts's rule). */
const expectedCredential = (payload: Record<string, unknown>, entries: StatusEntry[]) =>
  entries.length === 0 ? payload : { ...payload, credentialStatus: entries.length === 1 ? entries[0] : entries };

/**
 * Resolves an OUTCOME_UNKNOWN item as issued by adopting the copy the storage service stored under
 * the item's correlation id: exactly one copy, public (an encrypted copy's key went only to the
 * attempt that was lost), readable as enveloped VC-JOSE, naming the item's issuer, and whose signed
 * payload is, byte for byte, the item's request payload with the status entries it carries (so its
 * digest is the one issuance would have signed). The credential is then recorded from the copy and
 * the item resolved, in one transaction fenced on the batch version, as `resolveItem` does.
 */
export const adoptStoredCopy = async (deps: { db: Database; box: SecretBox; fetcher: Fetcher }, a: Adoption): Promise<AdoptionResult> => {
  // The resolution's own checks, in its order, for anything that is not an unknown item to adopt.
  const refusedByResolution = () =>
    resolveItem(deps.db, { ...a, finding: { as: 'adopted', record: () => Promise.reject(new Error('the item changed while its stored copy was read')) } });
  if (a.reason === undefined || a.reason.trim() === '') return refusedByResolution();
  const found = await inspectItem(deps.db, a.tenantId, a.batchId, a.index);
  if (found.outcome !== 'found' || found.batch.state !== 'NEEDS_ATTENTION' || found.batch.version !== a.version || found.item.state !== 'OUTCOME_UNKNOWN') {
    return refusedByResolution();
  }
  const before = { batch: found.batch, item: found.item };
  const refuse = (outcome: AdoptionRefusal | 'credential-recorded', copy?: AdoptionResult['copy']): AdoptionResult => ({ outcome, before, ...(copy ? { copy } : {}) });

  const request = parseIssuanceRequest(JSON.parse(await discloseItemRequest(deps.box, found.item)), a.issuance);
  const trace = await traceCorrelation(deps, a.tenantId, found.item.correlationId);
  const copies = trace.objects.filter((o) => o.exists);
  if (copies.length === 0) return refuse('no-stored-copy');
  if (copies.length > 1) return refuse('several-stored-copies');
  const copy = copies[0]!;
  if (copy.visibility === 'private') return refuse('stored-copy-encrypted', { uri: copy.uri });

  let bytes: Uint8Array;
  try {
    const res = await deps.fetcher(copy.uri);
    if (!res.ok) return refuse('stored-copy-unreadable', { uri: copy.uri });
    bytes = new Uint8Array(await res.arrayBuffer());
  } catch {
    return refuse('stored-copy-unreadable', { uri: copy.uri });
  }
  const opened = openEnvelope(bytes);
  if (!opened) return refuse('stored-copy-unreadable', { uri: copy.uri });
  const payloadDigest = await sha256Hex(opened.payloadText);
  const entries = statusEntriesOf(opened.decoded);
  const expected = JSON.stringify(expectedCredential(request.credentialPayload, entries));
  if (issuerOf(opened.decoded) !== issuerOf(request.credentialPayload) || expected !== opened.payloadText) {
    return refuse('stored-copy-mismatch', { uri: copy.uri, payloadDigest });
  }
  const [recorded] = await deps.db
    .select({ id: credentials.id })
    .from(credentials)
    .where(and(eq(credentials.tenantId, a.tenantId), eq(credentials.storageUri, copy.uri)));
  if (recorded) return refuse('credential-recorded', { uri: copy.uri, payloadDigest });

  const digestMultibase = hexHashToMultibase(await sha256Hex(bytes));
  const record = async (tx: Queryable): Promise<string> => {
    const dataModel = await resolveIssuanceDataModel(tx, a.tenantId, request.credentialType, request.version);
    const issuer = await resolveIssuer(tx, a.tenantId, opened.decoded);
    const entities = await resolveEntityLinks(tx, a.tenantId, request.credentialPayload).catch(() => NO_LINKS);
    const { details, problems } = extractCredentialDetails(opened.decoded);
    const id = newCredentialId();
    await insertIssuedCredential(tx, id, {
      tenantId: a.tenantId,
      credentialType: request.credentialType,
      version: request.version,
      dataModelId: dataModel.id,
      coreCredentialType: coreTypeOf(dataModel.core.credentialType),
      coreVersion: dataModel.core.version,
      details,
      detailsError: problems.length ? problems.join('; ') : null,
      entities,
      tags: request.tags,
      issuerDid: issuer.did,
      vcServiceInstanceId: issuer.instance.id,
      storageServiceInstanceId: copy.instanceId,
      storageUri: copy.uri,
      storageExternalId: copy.key.replace(/\.[^.]+$/, ''),
      digestMultibase,
      encrypted: false,
      wrappedDecryptionKey: null,
      statusEntries: entries,
    });
    return id;
  };
  const result = await resolveItem(deps.db, { ...a, finding: { as: 'adopted', record } });
  return { ...result, copy: { uri: copy.uri, payloadDigest } };
};
