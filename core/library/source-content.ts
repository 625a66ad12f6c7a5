import { base58btc } from 'multiformats/bases/base58';
import { create as createDigest } from 'multiformats/hashes/digest';
import type { ContentKind } from '../../db/schema/index.ts';
import { ApiError, badRequest } from '../errors.ts';
import { GuardedFetchError, type Fetcher } from '../net/fetcher.ts';
import { publicUrlProblem } from '../net/public-url.ts';
import { decryptEnvelope, isEncryptionEnvelope } from '../verification/decryption.ts';
import { parseJsonObject } from '../verification/retrieve.ts';
import { VerificationStop } from '../verification/outcome.ts';

/** sha2-256 of the bytes as a multibase multihash (base58btc), the form storage answers. */
export const sha256Multibase = async (bytes: Uint8Array): Promise<string> =>
  base58btc.encode(createDigest(0x12, new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>))).bytes);

export interface FetchedSource {
  bytes: Uint8Array;
  contentType: string;
}

/**
 * A source URL we may fetch: absolute http(s) without userinfo (else 400 VALIDATION_FAILED), and not
 * a private or reserved address unless allowed (400 SOURCE_NOT_PERMITTED). Checked before anything is
 * claimed or fetched; the guarded fetcher checks every hop again.
 */
export const assertSourceUrl = (sourceUrl: string, allowPrivateUrls: boolean): void => {
  const malformed = publicUrlProblem(sourceUrl, true);
  if (malformed) throw badRequest(`sourceUrl: ${malformed}`);
  const refused = publicUrlProblem(sourceUrl, allowPrivateUrls);
  if (refused) throw badRequest(`sourceUrl: ${refused}`, 'SOURCE_NOT_PERMITTED');
};

/**
 * The source's bytes through the guarded fetcher. An address we must not contact is the caller's
 * mistake (400 SOURCE_NOT_PERMITTED, also when a redirect leads there); a source that cannot be read
 * is 422 SOURCE_UNREACHABLE, and nothing is recorded.
 */
export const fetchSource = async (fetcher: Fetcher, sourceUrl: string, allowPrivateUrls: boolean): Promise<FetchedSource> => {
  assertSourceUrl(sourceUrl, allowPrivateUrls);
  let response: Response;
  let bytes: Uint8Array;
  try {
    response = await fetcher(sourceUrl, { headers: { accept: 'application/json, */*;q=0.5' } });
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    if (error instanceof GuardedFetchError && (error.reason === 'blocked-address' || error.reason === 'bad-url')) {
      throw badRequest('sourceUrl: must not point to a private or reserved address', 'SOURCE_NOT_PERMITTED');
    }
    const why = error instanceof GuardedFetchError ? error.reason : 'network';
    throw new ApiError(422, `sourceUrl: the source could not be read (${why})`, 'SOURCE_UNREACHABLE');
  }
  if (!response.ok) throw new ApiError(422, `sourceUrl: the source answered HTTP ${response.status}`, 'SOURCE_UNREACHABLE');
  return { bytes, contentType: response.headers.get('content-type') ?? 'application/octet-stream' };
};

export interface OpenedContent {
  kind: ContentKind;
  /** The source answered an encryption envelope. */
  encrypted: boolean;
  /** Encrypted and no key was given: what we keep is the supplier's ciphertext. */
  unopened: boolean;
  /** A key was given for a source that was not encrypted (it is discarded). */
  keyUnused: boolean;
  /** What the durable copy holds (JSON stored by the storage service). */
  copy: Record<string, unknown>;
  /** The bytes the content digest is taken over. */
  contentBytes: Uint8Array;
  /** The opened JSON document, when there is one. */
  document?: Record<string, unknown>;
}

const isEnvelopedCredential = (document: Record<string, unknown>) => {
  const types = Array.isArray(document.type) ? document.type : [document.type];
  return types.includes('EnvelopedVerifiableCredential') && typeof document.id === 'string';
};

const base64 = (bytes: Uint8Array) => {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
};

/**
 * Opens what the source answered with the supplier's key (used here once, never kept): an
 * encryption envelope is decrypted when a key is given (a key that does not open it is 422
 * DECRYPTION_FAILED), else kept unopened. Then its kind: an enveloped credential, another JSON
 * object, or opaque bytes.
 */
export const openSource = async (source: FetchedSource, supplierKey: string | undefined): Promise<OpenedContent> => {
  const parsed = parseJsonObject(source.bytes);
  if (parsed && isEncryptionEnvelope(parsed)) {
    if (supplierKey === undefined) {
      return { kind: 'OPAQUE', encrypted: true, unopened: true, keyUnused: false, copy: parsed, contentBytes: source.bytes };
    }
    try {
      const { bytes, document } = await decryptEnvelope(parsed, supplierKey);
      const kind = isEnvelopedCredential(document) ? 'CREDENTIAL' : 'JSON_OBJECT';
      return { kind, encrypted: true, unopened: false, keyUnused: false, copy: document, contentBytes: bytes, document };
    } catch (error) {
      if (!(error instanceof VerificationStop)) throw error;
      throw new ApiError(422, `sourceEncryption.decryptionKey: ${error.message}`, error.code === 'DECRYPTION_FAILED' ? 'DECRYPTION_FAILED' : 'SOURCE_ENVELOPE_INVALID');
    }
  }
  const keyUnused = supplierKey !== undefined;
  if (parsed) {
    return { kind: isEnvelopedCredential(parsed) ? 'CREDENTIAL' : 'JSON_OBJECT', encrypted: false, unopened: false, keyUnused, copy: parsed, contentBytes: source.bytes, document: parsed };
  }
  return {
    kind: 'OPAQUE',
    encrypted: false,
    unopened: false,
    keyUnused,
    copy: { contentType: source.contentType, base64: base64(source.bytes) },
    contentBytes: source.bytes,
  };
};
