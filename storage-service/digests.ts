import { createHash } from 'node:crypto';
import { base58btc } from 'multiformats/bases/base58';
import { create as createDigest } from 'multiformats/hashes/digest';

const SHA2_256 = 0x12;

/**
 * SHA-256 of the stored plaintext as raw bytes, over one buffer or its chunks in order.
 * node:crypto (also in edge runtimes with nodejs_compat): synchronous, no thread-pool hop per upload.
 */
export const sha256 = (bytes: Uint8Array | readonly Uint8Array[]): Buffer => {
  const hash = createHash('sha256');
  if (bytes instanceof Uint8Array) hash.update(bytes);
  else for (const chunk of bytes) hash.update(chunk);
  return hash.digest();
};

/** The 3.x `hash`: lowercase hex SHA-256. */
export const hexHash = (digest: Uint8Array) => Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength).toString('hex');

/** The 4.x `digestMultibase`: base58btc multibase of the sha2-256 multihash (`zQm…`). */
export const digestMultibase = (digest: Uint8Array) => base58btc.encode(createDigest(SHA2_256, digest).bytes);
