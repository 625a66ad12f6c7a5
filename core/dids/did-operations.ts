import type { Database } from '../../db/client.ts';
import type { DidMethod } from '../../db/schema/index.ts';
import { AdapterError } from '../adapters/adapter-errors.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import { ApiError, badRequest, forbidden } from '../errors.ts';
import type { Logger } from '../logging/logger.ts';
import type { Fetcher } from '../net/fetcher.ts';
import { assertUsableServiceInstance } from '../service-instances/visible-instance.ts';
import { fetchDidWebDocument } from './did-document.ts';
import { aliasTaken, assertDidFree, deleteDidRecord, insertDid, loadVisibleDid, setDidStatus, type DidRow } from './did-repository.ts';
import { aliasHost, didWebHost, encodeAliasPort, isSelfManagedAlias, parseDid, stripManagedAlias } from './did-web.ts';
import { runVerificationChecks, type CheckOutcome } from './verification-checks.ts';
import { findServiceInstanceRow, resolveVcInstance, systemVcInstance, vcAdapterFor, vcConfigOf, VC_FIELD } from './vc-instance.ts';

export interface DidDeps {
  db: Database;
  box: SecretBox;
  fetcher: Fetcher;
  logger: Logger;
  correlationId?: string;
}

/** Methods the spec names but we do not support yet: a 400 naming the field. */
export const assertSupportedMethod = (method: DidMethod) => {
  if (method !== 'DID_WEB') throw badRequest(`method: ${method} is planned and not supported yet; use DID_WEB`);
};

/** The VC service's failure as a 502 of fixed text: its own words (and addresses) are in the caller's warn log line. */
const vcUnavailable = (error: unknown) => (error instanceof AdapterError ? new ApiError(502, 'The VC service is unavailable; try again later', 'VC_UNAVAILABLE') : error);
const aliasInUseUpstream = (error: unknown) => error instanceof AdapterError && error.kind === 'rejected' && /already exists|in use/i.test(error.message);

export interface CreateDidInput {
  type: 'MANAGED' | 'SELF_MANAGED';
  method: DidMethod;
  alias: string;
  name?: string;
  description?: string;
  isDefault?: boolean;
  serviceInstanceId?: string;
}

/** A self-managed alias may not claim the system VC service's own host (paths under it are fine). */
const assertNotSystemHost = async (deps: DidDeps, alias: string) => {
  const hasPath = encodeAliasPort(alias).includes(':');
  const system = await systemVcInstance(deps.db);
  if (!system || hasPath) return;
  const { host, hostname } = new URL((await vcConfigOf(deps.box, system)).baseUrl);
  if ([host, hostname].includes(aliasHost(alias))) {
    throw forbidden('alias: the system VC service host cannot be a self-managed DID', 'DID_ALIAS_RESERVED');
  }
};

/** The alias the VC service is asked for and the one recorded, per DID type. */
const aliases = async (deps: DidDeps, input: CreateDidInput, baseUrl: string) => {
  if (input.type === 'MANAGED') {
    const short = stripManagedAlias(input.alias);
    if (!short) throw badRequest('alias: must contain at least one letter, digit or hyphen');
    return { upstream: `${didWebHost(baseUrl)}:${short}`, recorded: short };
  }
  if (!isSelfManagedAlias(input.alias)) {
    throw badRequest('alias: must be a domain (optionally with port) and optional colon-separated path');
  }
  await assertNotSystemHost(deps, input.alias);
  return { upstream: encodeAliasPort(input.alias), recorded: input.alias };
};

/** POST /dids: the VC service creates the DID (and keys), then the record is stored. */
export const createDid = async (deps: DidDeps, tenantId: string, input: CreateDidInput): Promise<DidRow> => {
  assertSupportedMethod(input.method);
  const instance = await resolveVcInstance(deps.db, tenantId, input.serviceInstanceId);
  const { adapter, config } = await vcAdapterFor(deps, instance);
  const alias = await aliases(deps, input, config.baseUrl);
  await assertDidFree(deps.db, `did:web:${alias.upstream}`, { serviceInstanceId: instance.id, alias: alias.recorded });
  const created = await adapter.createDid(alias.upstream).catch((error) => {
    if (aliasInUseUpstream(error)) throw aliasTaken();
    // A lost answer may hide a DID the VC service did create: say which, so it can be found and removed.
    deps.logger.warn('DID creation failed; the VC service may hold it without a record here', {
      correlationId: deps.correlationId,
      did: `did:web:${alias.upstream}`,
      serviceInstanceId: instance.id,
      detail: error instanceof Error ? error.message : String(error),
    });
    throw vcUnavailable(error);
  });
  const removeUpstream = () =>
    adapter.deleteDid(created.did).catch((error) => {
      deps.logger.warn('DID not recorded and not removed from the VC service', { did: created.did, serviceInstanceId: instance.id, error: String(error) });
    });
  await assertDidFree(deps.db, created.did).catch(async (error) => {
    await removeUpstream();
    throw error;
  });
  try {
    return await insertDid(deps.db, {
      tenantId,
      did: created.did,
      type: input.type,
      method: input.method,
      status: input.type === 'MANAGED' ? 'ACTIVE' : 'UNVERIFIED',
      alias: alias.recorded,
      keyId: created.controllerKeyId ?? created.keys[0]?.kid ?? null,
      name: input.name ?? null,
      description: input.description ?? null,
      isDefault: input.isDefault ?? false,
      serviceInstanceId: instance.id,
    });
  } catch (error) {
    // Lost a race for the did or alias: the upstream identifier we just made is ours to remove.
    await removeUpstream();
    throw error;
  }
};

export interface ImportDidInput {
  did: string;
  method: DidMethod;
  keyId: string;
  serviceInstanceId: string;
  name?: string;
  description?: string;
}

/** POST /dids/import: records a DID the tenant's VC service already holds, without calling it. */
export const importDid = async (deps: DidDeps, tenantId: string, input: ImportDidInput): Promise<DidRow> => {
  assertSupportedMethod(input.method);
  const parsed = parseDid(input.did);
  if (!parsed) throw badRequest('did: must have the form did:<method>:<identifier>');
  if (parsed.method !== 'web') throw badRequest(`did: did:${parsed.method} is not supported; use did:web`);
  await assertUsableServiceInstance(deps.db, tenantId, input.serviceInstanceId, 'VC', VC_FIELD);
  await assertDidFree(deps.db, input.did);
  return insertDid(deps.db, {
    tenantId,
    did: input.did,
    type: 'SELF_MANAGED',
    method: input.method,
    status: 'UNVERIFIED',
    keyId: input.keyId,
    name: input.name ?? null,
    description: input.description ?? null,
    serviceInstanceId: input.serviceInstanceId,
  });
};

/** DELETE: the local record first; then, if an instance is still associated, the upstream DID best-effort. */
export const deleteDid = async (deps: DidDeps, tenantId: string, id: string): Promise<void> => {
  const row = await deleteDidRecord(deps.db, tenantId, id);
  if (!row.serviceInstanceId) return;
  try {
    const instance = await findServiceInstanceRow(deps.db, row.serviceInstanceId);
    if (!instance) return;
    await (await vcAdapterFor(deps, instance)).adapter.deleteDid(row.did);
  } catch (error) {
    deps.logger.warn('Upstream DID deletion failed; the local record was removed', {
      did: row.did,
      serviceInstanceId: row.serviceInstanceId,
      error: error instanceof Error ? error.message : String(error),
    });
  }
};

/** A document that could not be had, as a 502 of fixed text; the upstream detail goes to the warn log with the correlation id. */
const documentUnavailable = (deps: DidDeps, message: string, detail?: string) => {
  if (detail !== undefined) deps.logger.warn('DID document unavailable', { correlationId: deps.correlationId, reason: message, detail });
  return new ApiError(502, message, 'DID_DOCUMENT_UNAVAILABLE');
};

/** GET /dids/{id}/document: from the VC service (DEFAULT, MANAGED) or the tenant's hosting location. */
export const didDocument = async (deps: DidDeps, tenantId: string, id: string): Promise<Record<string, unknown>> => {
  const row = await loadVisibleDid(deps.db, tenantId, id);
  if (row.type === 'SELF_MANAGED') {
    const resolution = await fetchDidWebDocument(deps.fetcher, row.did);
    if (!resolution.ok) throw documentUnavailable(deps, 'The DID document was not returned by its hosting location', resolution.message);
    if (!resolution.document || typeof resolution.document !== 'object' || Array.isArray(resolution.document)) {
      throw documentUnavailable(deps, 'The hosting location did not return a JSON object');
    }
    return resolution.document as Record<string, unknown>;
  }
  const instance = row.serviceInstanceId ? await findServiceInstanceRow(deps.db, row.serviceInstanceId) : undefined;
  if (!instance) throw documentUnavailable(deps, 'The DID has no VC service instance any more');
  const document = await (await vcAdapterFor(deps, instance)).adapter.resolveDocument(row.did).catch((error) => {
    throw documentUnavailable(deps, 'The VC service did not return the DID document', error instanceof Error ? error.message : String(error));
  });
  if (!document) throw documentUnavailable(deps, 'The VC service did not return the DID document');
  return document;
};

/** Statuses a verification outcome replaces; an ACTIVE (managed) DID keeps its status. */
const VERIFIABLE = new Set(['UNVERIFIED', 'VERIFIED', 'VERIFICATION_FAILED']);

/** POST /dids/{id}/verify: the spec's checks in order; their outcome sets the status. */
export const verifyDid = async (deps: DidDeps, tenantId: string, id: string): Promise<{ did: DidRow; verified: boolean; checks: CheckOutcome[] }> => {
  const row = await loadVisibleDid(deps.db, tenantId, id);
  if (row.type === 'DEFAULT') throw badRequest('id: the system DEFAULT DID cannot be verified');
  const parsed = parseDid(row.did);
  if (!parsed) throw badRequest('did: the stored DID does not parse as did:<method>:<identifier>');
  if (parsed.method !== 'web' || row.method !== 'DID_WEB') throw badRequest(`did: did:${parsed.method} is not a supported method`);
  const providerKids = async () => {
    const instance = row.serviceInstanceId ? await findServiceInstanceRow(deps.db, row.serviceInstanceId) : undefined;
    if (!instance) return [];
    const held = await (await vcAdapterFor(deps, instance)).adapter.getDid(row.did);
    return held?.keys.map((k) => k.kid) ?? [];
  };
  const checks = await runVerificationChecks(deps.fetcher, row.did, providerKids);
  const verified = checks.every((c) => c.result !== 'FAILED');
  const did = VERIFIABLE.has(row.status) ? await setDidStatus(deps.db, row.id, verified ? 'VERIFIED' : 'VERIFICATION_FAILED') : row;
  return { did, verified, checks };
};
