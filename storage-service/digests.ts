import { base58btc } from 'multiformats/bases/base58';
import { create as createDigest } from 'multiformats/hashes/digest';
import { bytesToHex } from '../core/crypto/encoding.ts';

const SHA2_256 = 0x12;

/** SHA-256 of the stored plaintext as raw bytes. */
export const sha256 = async (bytes: Uint8Array): Promise<Uint8Array> =>
  new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as BufferSource));

/** The 3.x `hash`: lowercase hex SHA-256. */
export const hexHash = (digest: Uint8Array) => bytesToHex(digest);

/** The 4.x `digestMultibase`: base58btc multibase of the sha2-256 multihash (`zQm…`). */
export const digestMultibase = (digest: Uint8Array) => base58btc.encode(createDigest(SHA2_256, digest).bytes);

