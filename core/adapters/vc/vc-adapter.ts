import type { Fetcher } from '../../net/fetcher.ts';
import { AdapterError, callUpstream } from '../adapter-errors.ts';

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
  error?: { message: string; errorCode?: string };
}

export interface VcAdapter {
  /** Enveloped VC-JOSE; the decoded credential is the JWS payload. */
  issue(credential: Record<string, unknown>): Promise<{ enveloped: EnvelopedCredential; decoded: Record<string, unknown> }>;
  verify(enveloped: EnvelopedCredential, options?: { checkStatus?: boolean }): Promise<VerifyResult>;
  createDid(alias: string): Promise<ManagedDid>;
  getDid(did: string): Promise<ManagedDid | undefined>;
  listDids(): Promise<ManagedDid[]>;
  deleteDid(did: string): Promise<void>;
  resolveDocument(did: string): Promise<Record<string, unknown> | undefined>;
  mintStatus(issuerDid: string, purpose: string): Promise<StatusEntry>;
  setStatus(entry: StatusEntry, issuerDid: string, status: boolean): Promise<void>;
  checkStatus(entry: StatusEntry, issuerDid: string): Promise<{ revoked: boolean }>;
}

const decodePayload = (enveloped: EnvelopedCredential): Record<string, unknown> => {
  const jwt = enveloped.id.slice(enveloped.id.indexOf(',') + 1);
  const payload = jwt.split('.')[1];
  if (!payload) throw new AdapterError('rejected', 'VC', 'The VC service returned a credential that is not a compact JWS');
  const bytes = Uint8Array.from(atob(payload.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
};

const REFUSAL = /^(invalid_argument|not_found|invalid_setup):|must include|not found|already exists/i;

/** VCkit client: `/v2/credentials/issue` for signing, `/agent/<method>` for DIDs, verification and status. */
export const createVcAdapter = (config: VcConfig, fetcher: Fetcher): VcAdapter => {
  const base = config.baseUrl.replace(/\/+$/, '');
  const post = async <T>(path: string, body: unknown): Promise<T> => {
    try {
      const res = await callUpstream('VC', () =>
        fetcher(`${base}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${config.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );
      return (await res.json()) as T;
    } catch (error) {
      // VCkit answers 500 for refusals too; its `code: detail` messages tell them from failures.
      if (error instanceof AdapterError && error.status === 500 && REFUSAL.test(error.message)) {
        throw new AdapterError('rejected', 'VC', error.message, 500);
      }
      throw error;
    }
  };
  const notFound = (error: unknown) => error instanceof AdapterError && /not found|not_found/i.test(error.message);

  return {
    async issue(credential) {
      const body = await post<{ verifiableCredential?: EnvelopedCredential }>('/v2/credentials/issue', {
        credential,
        options: { proofFormat: 'EnvelopingProofJose' },
      });
      const enveloped = body.verifiableCredential;
      if (enveloped?.type !== 'EnvelopedVerifiableCredential' || !enveloped.id?.startsWith('data:application/')) {
        throw new AdapterError('rejected', 'VC', 'The VC service did not return an enveloped credential');
      }
      return { enveloped, decoded: decodePayload(enveloped) };
    },
    verify: (enveloped, options = {}) =>
      post<VerifyResult>('/agent/routeVerificationCredential', {
        credential: enveloped,
        fetchRemoteContexts: true,
        policies: { credentialStatus: options.checkStatus ?? true },
      }),
    createDid: (alias) =>
      post<ManagedDid>('/agent/didManagerCreate', { alias, provider: 'did:web', kms: 'local', options: { keyType: 'Ed25519' } }),
    async getDid(did) {
      try {
        return await post<ManagedDid>('/agent/didManagerGet', { did });
      } catch (error) {
        if (notFound(error)) return undefined;
        throw error;
      }
    },
    listDids: () => post<ManagedDid[]>('/agent/didManagerFind', {}),
    async deleteDid(did) {
      try {
        await post('/agent/didManagerDelete', { did });
      } catch (error) {
        if (!notFound(error)) throw error;
      }
    },
    async resolveDocument(did) {
      const result = await post<{ didDocument?: Record<string, unknown> | null }>('/agent/resolveDid', { didUrl: did });
      return result.didDocument ?? undefined;
    },
    mintStatus: (issuerDid, purpose) =>
      post<StatusEntry>('/agent/issueBitstringStatusList', { statusPurpose: purpose, bitstringStatusIssuer: issuerDid }),
    async setStatus(entry, issuerDid, status) {
      await post('/agent/setBitstringStatus', {
        statusListCredential: entry.statusListCredential,
        statusListVCIssuer: issuerDid,
        statusPurpose: entry.statusPurpose,
        index: entry.statusListIndex,
        status,
      });
    },
    checkStatus: (entry, issuerDid) =>
      post<{ revoked: boolean }>('/agent/checkBitstringStatus', { verifiableCredential: { credentialStatus: entry, issuer: { id: issuerDid } } }),
  };
};
