import { traceHeaders as traceContextHeaders } from '../../tracing/trace-context.ts';
import * as z from 'zod';
import type { Fetcher } from '../../net/fetcher.ts';
import { AdapterError, callUpstream, upstreamJson } from '../adapter-errors.ts';
import { traceHeaders, type CallContext } from '../trace-headers.ts';
import { base64UrlToBytes } from '../../crypto/encoding.ts';

/** VC_ADAPTER config (validated by `core/service-instances/adapter-configs.ts`). */
export interface VcConfig {
  baseUrl: string;
  apiKey: string;
  apiVersion: string;
}

export interface EnvelopedCredential {
  '@context': unknown;
  type: 'EnvelopedVerifiableCredential';
  id: string;
}

export interface StatusEntry {
  id: string;
  type: 'BitstringStatusListEntry';
  statusPurpose: string;
  statusListIndex: number;
  statusListCredential: string;
}

export interface ManagedDid {
  did: string;
  alias?: string;
  controllerKeyId?: string;
  keys: { kid: string; type: string; publicKeyHex: string }[];
}

export interface VerifyResult {
  verified: boolean;
  document?: Record<string, unknown>;
  /** `didResolutionError`: with `resolver_error`, why the issuer's DID did not resolve (our VC service; VCkit sends none). */
  error?: { message: string; errorCode?: string; didResolutionError?: string };
}

/** What our VC service recorded under a correlation id (`GET /v2/correlations/:id`; VCkit has no such route). */
export interface CorrelatedEvent {
  kind: 'signature' | 'status-entry';
  issuer: string;
  credentialId: string | null;
  /** SHA-256 (hex) of the credential JSON as signed (signatures). */
  payloadDigest: string | null;
  /** `<list url>#<index>` (status entries). */
  statusEntry: string | null;
  createdAt: string;
}

/** A status entry minted under some correlation id (`GET /v2/correlations`), as the orphan sweep pages through them. */
export interface ListedStatusEntry {
  id: string;
  correlationId: string;
  issuer: string;
  /** `<list url>#<index>`. */
  statusEntry: string;
  /** Null when the list is no longer on the service. */
  statusPurpose: string | null;
  bitSet: boolean | null;
  createdAt: string;
}

export interface VcAdapter {
  /** Enveloped VC-JOSE; the decoded credential is the JWS payload. */
  issue(credential: Record<string, unknown>): Promise<{ enveloped: EnvelopedCredential; decoded: Record<string, unknown> }>;
  verify(enveloped: EnvelopedCredential, options?: { checkStatus?: boolean }): Promise<VerifyResult>;
  createDid(alias: string): Promise<ManagedDid>;
  getDid(did: string): Promise<ManagedDid | undefined>;
  listDids(): Promise<ManagedDid[]>;
  deleteDid(did: string): Promise<void>;
  /** A new signing key for a DID the service holds (this project's VC service only; VCkit has no such method). */
  rotateDidKey(did: string): Promise<ManagedDid>;
  resolveDocument(did: string): Promise<Record<string, unknown> | undefined>;
  mintStatus(issuerDid: string, purpose: string): Promise<StatusEntry>;
  /** Sets the entry's bit; the answer echoes the bit set (`{ status }`), checked by the caller. */
  setStatus(entry: StatusEntry, issuerDid: string, status: boolean): Promise<{ status: boolean }>;
  /** Reads the entry's bit (VCkit names it `revoked` whatever the list's purpose). */
  checkStatus(entry: StatusEntry, issuerDid: string): Promise<{ revoked: boolean; errors?: { message?: string }[] }>;
  /** Signatures made and status entries minted under a correlation id (at most 50, oldest first). */
  correlatedEvents(correlationId: string): Promise<CorrelatedEvent[]>;
  /** One page of the status entries minted under any correlation id, after the cursor (`next` when more follow). */
  listStatusEntries(after?: string): Promise<{ entries: ListedStatusEntry[]; next?: string }>;
}

const malformed = (what: string) => new AdapterError('unavailable', 'VC', `The VC service returned ${what}`);

const decodePayload = (enveloped: EnvelopedCredential): Record<string, unknown> => {
  const jwt = enveloped.id.slice(enveloped.id.indexOf(',') + 1);
  const payload = jwt.split('.')[1];
  if (!payload) throw malformed('a credential that is not a compact JWS');
  try {
    const decoded: unknown = JSON.parse(new TextDecoder().decode(base64UrlToBytes(payload)));
    if (decoded && typeof decoded === 'object' && !Array.isArray(decoded)) return decoded as Record<string, unknown>;
  } catch {}
  throw malformed('a credential whose JWS payload is not a JSON object');
};

/** The contract's answer shapes (contracts/vckit.md), checked before anything is read from them. */
const Answers = {
  issued: z.looseObject({
    verifiableCredential: z.looseObject({ '@context': z.unknown(), type: z.literal('EnvelopedVerifiableCredential'), id: z.string().startsWith('data:application/') }),
  }),
  verified: z.looseObject({
    verified: z.boolean(),
    document: z.record(z.string(), z.unknown()).optional(),
    error: z.looseObject({ message: z.string(), errorCode: z.string().optional(), didResolutionError: z.string().optional() }).optional(),
  }),
  did: z.looseObject({
    did: z.string().startsWith('did:'),
    alias: z.string().optional(),
    controllerKeyId: z.string().optional(),
    keys: z.array(z.looseObject({ kid: z.string(), type: z.string(), publicKeyHex: z.string() })),
  }),
  resolved: z.looseObject({ didDocument: z.record(z.string(), z.unknown()).nullable().optional() }),
  statusEntry: z.looseObject({
    id: z.string(),
    type: z.literal('BitstringStatusListEntry'),
    statusPurpose: z.string(),
    statusListIndex: z.number(),
    statusListCredential: z.string(),
  }),
  correlated: z.looseObject({
    events: z.array(
      z.looseObject({
        kind: z.enum(['signature', 'status-entry']),
        issuer: z.string(),
        credentialId: z.string().nullable(),
        payloadDigest: z.string().nullable(),
        statusEntry: z.string().nullable(),
        createdAt: z.string(),
      }),
    ),
  }),
  listed: z.looseObject({
    entries: z.array(
      z.looseObject({
        id: z.string(),
        correlationId: z.string(),
        issuer: z.string(),
        statusEntry: z.string(),
        statusPurpose: z.string().nullable(),
        bitSet: z.boolean().nullable(),
        createdAt: z.string(),
      }),
    ),
    next: z.string().optional(),
  }),
  status: z.looseObject({ revoked: z.boolean(), errors: z.array(z.looseObject({ message: z.string().optional() })).optional() }),
  statusSet: z.looseObject({ status: z.boolean() }),
  any: z.unknown(),
};

const REFUSAL = /^(invalid_argument|not_found|invalid_setup):|must include|not found|already exists/i;

/** VCkit client: `/v2/credentials/issue` for signing, `/agent/<method>` for DIDs, verification and status. */
export const createVcAdapter = (config: VcConfig, fetcher: Fetcher, context: CallContext = {}): VcAdapter => {
  const base = config.baseUrl.replace(/\/+$/, '');
  const post = async <T>(path: string, body: unknown, answer: z.ZodType<T>): Promise<T> => {
    let res: Response;
    try {
      res = await callUpstream('VC', () =>
        fetcher(`${base}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${config.apiKey}`, 'content-type': 'application/json', ...traceHeaders(context), ...traceContextHeaders() },
          body: JSON.stringify(body),
        }),
      );
    } catch (error) {
      // VCkit answers 500 for refusals too; its `code: detail` messages tell them from failures.
      if (error instanceof AdapterError && error.status === 500 && REFUSAL.test(error.message)) {
        throw new AdapterError('rejected', 'VC', error.message, 500, true);
      }
      throw error;
    }
    return upstreamJson('VC', res, answer);
  };
  const notFound = (error: unknown) => error instanceof AdapterError && /not found|not_found/i.test(error.message);

  return {
    async issue(credential) {
      const body = await post('/v2/credentials/issue', { credential, options: { proofFormat: 'EnvelopingProofJose' } }, Answers.issued);
      const enveloped = body.verifiableCredential as EnvelopedCredential;
      return { enveloped, decoded: decodePayload(enveloped) };
    },
    verify: (enveloped, options = {}) =>
      post(
        '/agent/routeVerificationCredential',
        { credential: enveloped, fetchRemoteContexts: true, policies: { credentialStatus: options.checkStatus ?? true } },
        Answers.verified,
      ),
    createDid: (alias) =>
      post('/agent/didManagerCreate', { alias, provider: 'did:web', kms: 'local', options: { keyType: 'Ed25519' } }, Answers.did),
    async getDid(did) {
      try {
        return await post('/agent/didManagerGet', { did }, Answers.did);
      } catch (error) {
        if (notFound(error)) return undefined;
        throw error;
      }
    },
    listDids: () => post('/agent/didManagerFind', {}, z.array(Answers.did)),
    async deleteDid(did) {
      try {
        await post('/agent/didManagerDelete', { did }, Answers.any);
      } catch (error) {
        if (!notFound(error)) throw error;
      }
    },
    rotateDidKey: (did) => post('/agent/didManagerRotateKey', { did }, Answers.did),
    async resolveDocument(did) {
      const result = await post('/agent/resolveDid', { didUrl: did }, Answers.resolved);
      return result.didDocument ?? undefined;
    },
    mintStatus: (issuerDid, purpose) =>
      post('/agent/issueBitstringStatusList', { statusPurpose: purpose, bitstringStatusIssuer: issuerDid }, Answers.statusEntry),
    setStatus: (entry, issuerDid, status) =>
      post(
        '/agent/setBitstringStatus',
        {
          statusListCredential: entry.statusListCredential,
          statusListVCIssuer: issuerDid,
          statusPurpose: entry.statusPurpose,
          index: entry.statusListIndex,
          status,
        },
        Answers.statusSet,
      ),
    checkStatus: (entry, issuerDid) =>
      post('/agent/checkBitstringStatus', { verifiableCredential: { credentialStatus: entry, issuer: { id: issuerDid } } }, Answers.status),
    async correlatedEvents(correlationId) {
      const res = await callUpstream('VC', () =>
        fetcher(`${base}/v2/correlations/${encodeURIComponent(correlationId)}`, {
          headers: { authorization: `Bearer ${config.apiKey}`, ...traceHeaders(context) },
        }),
      );
      return (await upstreamJson('VC', res, Answers.correlated)).events;
    },
    async listStatusEntries(after = '0') {
      const res = await callUpstream('VC', () =>
        fetcher(`${base}/v2/correlations?after=${encodeURIComponent(after)}`, { headers: { authorization: `Bearer ${config.apiKey}`, ...traceHeaders(context) } }),
      );
      return upstreamJson('VC', res, Answers.listed);
    },
  };
};
