import { metrics } from '../metrics/recorder.ts';
import { AdapterError } from '../adapters/adapter-errors.ts';
import type { EnvelopedCredential, StatusEntry, VcAdapter } from '../adapters/vc/vc-adapter.ts';
import type { StatusPurpose } from '../settings/issuance-settings.ts';
import { issuerOf } from './issuer-did.ts';

export interface SignedCredential {
  enveloped: EnvelopedCredential;
  decoded: Record<string, unknown>;
  /** The entries as minted and as they appear in the signed credential, one per purpose. */
  statusEntries: StatusEntry[];
}

const wrongAnswer = (what: string) => new AdapterError('unavailable', 'VC', `The VC service signed ${what}`);

const sameEntry = (a: unknown, b: StatusEntry) =>
  a !== null &&
  typeof a === 'object' &&
  (a as StatusEntry).statusPurpose === b.statusPurpose &&
  (a as StatusEntry).statusListCredential === b.statusListCredential &&
  Number((a as StatusEntry).statusListIndex) === b.statusListIndex;

/** Status-list entries carry one bit per credential here; a wider entry would not be a revocation flag. */
const assertOneBit = (entry: StatusEntry) => {
  const size = (entry as unknown as { statusSize?: unknown }).statusSize;
  if (size !== undefined && size !== 1) throw new AdapterError('unavailable', 'VC', `The VC service minted a ${entry.statusPurpose} entry of statusSize ${String(size)}`);
};

/**
 * Mints one status entry per purpose (before anything is signed), puts them in the credential (one
 * purpose: an object; several: an array; `statusListIndex` a JSON number, as UNTP 0.7 types it),
 * signs through the issuer's VC service, and checks the answer: the signed credential names our
 * issuer and carries exactly the minted entries. `onDispatch` runs just before the sign request,
 * `onMinted` after each entry is minted.
 */
export const signWithStatus = async (
  adapter: VcAdapter,
  input: {
    issuerDid: string;
    payload: Record<string, unknown>;
    purposes: StatusPurpose[];
    onDispatch?: () => void;
    /** Each entry as it is minted, so a failure later can say which entries it leaves unused. */
    onMinted?: (entry: StatusEntry) => void;
  },
): Promise<SignedCredential> => {
  const statusEntries: StatusEntry[] = [];
  for (const purpose of input.purposes) {
    const entry = await adapter.mintStatus(input.issuerDid, purpose);
    input.onMinted?.(entry);
    assertOneBit(entry);
    metrics().statusAllocation(purpose);
    statusEntries.push(entry);
  }
  const credential =
    statusEntries.length === 0 ? input.payload : { ...input.payload, credentialStatus: statusEntries.length === 1 ? statusEntries[0] : statusEntries };
  input.onDispatch?.();
  const { enveloped, decoded } = await adapter.issue(credential);
  if (issuerOf(decoded) !== input.issuerDid) throw wrongAnswer('a credential of another issuer');
  const signedStatus = decoded.credentialStatus === undefined ? [] : Array.isArray(decoded.credentialStatus) ? decoded.credentialStatus : [decoded.credentialStatus];
  if (signedStatus.length !== statusEntries.length || !statusEntries.every((e) => signedStatus.some((s) => sameEntry(s, e)))) {
    throw wrongAnswer('a credential whose status entries differ from the ones minted');
  }
  return { enveloped, decoded, statusEntries };
};
