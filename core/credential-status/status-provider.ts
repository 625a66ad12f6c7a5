import { AdapterError } from '../adapters/adapter-errors.ts';
import type { StatusEntry } from '../adapters/vc/vc-adapter.ts';
import { vcAdapterFor, type VcDeps, type VcInstance } from '../dids/vc-instance.ts';
import { bytesToBase64Url } from '../crypto/encoding.ts';
import { ApiError } from '../errors.ts';
import type { Logger } from '../logging/logger.ts';

/** What one call to the VC service came to, within the time left before the operation's deadline. */
export type ProviderAnswer<T> =
  | { ok: true; value: T }
  | {
      ok: false;
      /** `rejected`: it refused (nothing changed); `unavailable`: no usable answer; `invalid`: a 2xx that is not a status answer; `timeout`: no answer before the deadline. */
      reason: 'rejected' | 'unavailable' | 'invalid' | 'timeout';
      detail: string;
    };

/** The code of a read that gave no bit (reconcile and fresh reads name it alike). */
export const readFailureCode = (reason: Exclude<ProviderAnswer<never>, { ok: true }>['reason']) =>
  reason === 'invalid' ? 'VC_STATUS_RESPONSE_INVALID' : reason === 'rejected' ? 'VC_REJECTED' : 'VC_SERVICE_UNAVAILABLE';

const classify = (error: unknown): ProviderAnswer<never> => {
  if (error instanceof AdapterError) {
    if (error.kind === 'rejected') return { ok: false, reason: 'rejected', detail: error.message };
    const answered = error.status !== undefined && error.status >= 200 && error.status < 300;
    return { ok: false, reason: answered ? 'invalid' : 'unavailable', detail: error.message };
  }
  throw error;
};

/** Runs `call` until `deadline` (epoch ms); a late answer is dropped and counts as no answer. */
const withinDeadline = async <T>(deadline: number, call: () => Promise<T>): Promise<ProviderAnswer<T>> => {
  const left = deadline - Date.now();
  if (left <= 0) return { ok: false, reason: 'timeout', detail: 'the operation budget was spent' };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<ProviderAnswer<T>>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, reason: 'timeout', detail: `no answer within ${left} ms` }), left);
  });
  try {
    return await Promise.race([call().then((value): ProviderAnswer<T> => ({ ok: true, value }), classify), timeout]);
  } finally {
    clearTimeout(timer);
  }
};

/**
 * The VC service holding a credential's status lists, seen through its adapter: set a bit and read
 * a bit, each bounded by the operation's deadline. A read that names no bit (the list is not held
 * there) is `rejected`, never a "not set". An instance config that cannot be decrypted is 500
 * `RECORD_UNREADABLE`.
 */
export const statusProvider = async (deps: VcDeps & { logger: Logger }, instance: VcInstance) => {
  let opened: Awaited<ReturnType<typeof vcAdapterFor>>;
  try {
    opened = await vcAdapterFor(deps, instance);
  } catch (error) {
    deps.logger.error('A VC service instance config could not be decrypted', { instanceId: instance.id, error: String(error) });
    throw new ApiError(500, 'The VC service instance of this credential could not be read', 'RECORD_UNREADABLE');
  }
  const { adapter, config } = opened;
  // WebCrypto, so it runs at the edge as on Node.
  const urlDigest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(config.baseUrl.replace(/\/+$/, ''))));
  return {
    /** Names the VC service this instance points at now: its id and a digest of its base URL. */
    fingerprint: `${instance.id}:${bytesToBase64Url(urlDigest).slice(0, 22)}`,
    set: (entry: StatusEntry, issuerDid: string, value: boolean, deadline: number): Promise<ProviderAnswer<boolean>> =>
      withinDeadline(deadline, async () => {
        const answer = await adapter.setStatus(entry, issuerDid, value);
        if (answer.status !== value) throw new AdapterError('unavailable', 'VC', `setBitstringStatus echoed status ${answer.status} for ${value}`, 200);
        return value;
      }),
    read: (entry: StatusEntry, issuerDid: string, deadline: number): Promise<ProviderAnswer<boolean>> =>
      withinDeadline(deadline, async () => {
        const answer = await adapter.checkStatus(entry, issuerDid);
        if (answer.errors?.length) {
          throw new AdapterError('rejected', 'VC', `checkBitstringStatus could not read the entry: ${answer.errors[0]?.message ?? 'no reason given'}`);
        }
        return answer.revoked;
      }),
  };
};
export type StatusProvider = Awaited<ReturnType<typeof statusProvider>>;
