import { base16 } from 'multiformats/bases/base16';
import { base58btc } from 'multiformats/bases/base58';
import { base64url } from 'multiformats/bases/base64';
import { decode as decodeMultihash } from 'multiformats/hashes/digest';
import { bytesToHex, sha256Hex } from '../crypto/encoding.ts';
import { VerificationStop } from './outcome.ts';

const SHA2_256 = 0x12;
/** The multibase encodings a digest may arrive in: base58btc (`z`, what storage returns), base64url (`u`), base16 (`f`). */
const MULTIBASE = base58btc.decoder.or(base64url.decoder).or(base16.decoder);

/** The SHA-256 a `digestMultibase` carries (a sha2-256 multihash), or undefined when it is not one. */
export const sha256OfMultibase = (value: string): Uint8Array | undefined => {
  try {
    const digest = decodeMultihash(MULTIBASE.decode(value));
    return digest.code === SHA2_256 && digest.size === 32 ? digest.digest : undefined;
  } catch {
    return undefined;
  }
};

/** The legacy `hash`: a SHA-256 as 64 lowercase hexadecimal characters. */
export const LEGACY_HASH = /^[0-9a-f]{64}$/;

export interface ExpectedDigest {
  digestMultibase?: string;
  hash?: string;
}

/**
 * Compares the stored document with the integrity values the caller holds (each one given must
 * match). The storage service hashes the exact JSON text it stores; a source that re-serialises the
 * same document is accepted too, by hashing our own serialisation of what was parsed (computed only
 * when the stored bytes do not match already).
 */
export const checkDigest = async (expected: ExpectedDigest, bytes: Uint8Array, document: Record<string, unknown>): Promise<void> => {
  const ofBytes = await sha256Hex(bytes);
  let ofSerialisation: string | undefined;
  const matches = async (hex: string) =>
    hex === ofBytes || hex === (ofSerialisation ??= await sha256Hex(JSON.stringify(document)));
  if (expected.digestMultibase !== undefined) {
    const wanted = sha256OfMultibase(expected.digestMultibase);
    if (!wanted || !(await matches(bytesToHex(wanted)))) {
      throw new VerificationStop('DIGEST_MISMATCH', 'The credential does not match digestMultibase');
    }
  }
  if (expected.hash !== undefined && !(await matches(expected.hash))) {
    throw new VerificationStop('DIGEST_MISMATCH', 'The credential does not match hash');
  }
};
