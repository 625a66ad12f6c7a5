import type { JWTVerifyGetKey } from 'jose';
import { isUtf8 } from 'node:buffer';
import { constants, KeyObject, verify, type VerifyKeyObjectInput } from 'node:crypto';
import { checkClaims, checkProtectedHeader } from './jwt-claims.ts';
import type { ExpectedClaims, JwtVerifier } from './jwt-verifier.ts';

/**
 * The Node web process's JwtVerifier: the same verdicts as jose's `jwtVerify` (jwt-verifiers.test.ts
 * holds both to them), with the signature checked by node:crypto's one-shot `verify` rather than by
 * WebCrypto, whose asynchronous RSA verify costs about twice the CPU per token, and the token decoded
 * once. jose's remote key set still chooses the key (by `kid` and `alg`, refetching an unknown `kid`
 * with a cooldown, dropping keys the IDP no longer publishes) and imports it for the header's `alg`;
 * the key must also have been imported for exactly that alg, so no token can pick its own algorithm
 * (`none`, an HMAC keyed with a public key, or an alg of another key type are all refused). The key jose
 * chose for a header is kept at hand for a few seconds, so `atOnce` can check the next token signed
 * under that header without awaiting anything (the hot path of a client with a fresh token per request).
 */

/** What a JWS `alg` means to node:crypto, and the WebCrypto key algorithm it needs. */
interface Algorithm {
  hash: string | null;
  keyName: string;
  keyHash?: string;
  curve?: string;
  options?: Omit<VerifyKeyObjectInput, 'key'>;
}

const rsa = (bits: number): Algorithm => ({ hash: `sha${bits}`, keyName: 'RSASSA-PKCS1-v1_5', keyHash: `SHA-${bits}` });
const pss = (bits: number): Algorithm => ({
  hash: `sha${bits}`,
  keyName: 'RSA-PSS',
  keyHash: `SHA-${bits}`,
  options: { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST },
});
const ecdsa = (bits: number, curve: string): Algorithm => ({
  hash: `sha${bits}`,
  keyName: 'ECDSA',
  curve,
  options: { dsaEncoding: 'ieee-p1363' },
});

const ALGORITHMS: Record<string, Algorithm> = {
  RS256: rsa(256),
  RS384: rsa(384),
  RS512: rsa(512),
  PS256: pss(256),
  PS384: pss(384),
  PS512: pss(512),
  ES256: ecdsa(256, 'P-256'),
  ES384: ecdsa(384, 'P-384'),
  ES512: ecdsa(512, 'P-521'),
  EdDSA: { hash: null, keyName: 'Ed25519' },
  Ed25519: { hash: null, keyName: 'Ed25519' },
};

/** RSA keys shorter than this are refused, as jose refuses them. */
const MIN_RSA_BITS = 2048;
// `\w` without the u flag is [A-Za-z0-9_]: the base64url alphabet with `-`, in half the time of the spelled-out class.
const COMPACT_JWS = /^[\w-]+\.[\w-]+\.[\w-]+$/;
/** A base64url part's JSON; its bytes must be UTF-8 (a fatal TextDecoder's verdict, in two thirds of the time). */
const decodeJson = (part: string): unknown => {
  const bytes = Buffer.from(part, 'base64url');
  if (!isUtf8(bytes)) throw new Error('A JWS part is not UTF-8');
  return JSON.parse(bytes.toString('utf8'));
};
/** An IDP signs every token with one of a few headers: each is decoded and checked once, for a while. */
const KNOWN_HEADERS_MAX = 16;

/** Whether jose imported `key` for `algorithm` (its name, hash or curve, and a usable length). */
const importedFor = (key: CryptoKey, algorithm: Algorithm) => {
  const imported = key.algorithm as KeyAlgorithm & { hash?: { name: string }; namedCurve?: string; modulusLength?: number };
  if (imported.name !== algorithm.keyName || !key.usages.includes('verify')) return false;
  if (algorithm.keyHash !== undefined && (imported.hash?.name !== algorithm.keyHash || (imported.modulusLength ?? 0) < MIN_RSA_BITS)) {
    return false;
  }
  return algorithm.curve === undefined || imported.namedCurve === algorithm.curve;
};

/**
 * How long the key jose chose for a header is used again without asking it: the answer of its remote set
 * for a header changes only when it refetches the IDP's keys (once an hour here, or for an unknown `kid`),
 * so a key the IDP stops publishing is refused at most this much later than jose alone would refuse it.
 */
const KEY_AT_HAND_MS = 10_000;

interface Parsed {
  header: ReturnType<typeof checkProtectedHeader>;
  headerText: string;
  algorithm: Algorithm;
  payloadEnd: number;
}

export const createNodeJwtVerifier = (options: { keyAtHandMs?: number } = {}): JwtVerifier => {
  const keyAtHandMs = options.keyAtHandMs ?? KEY_AT_HAND_MS;
  // node:crypto's form of each key jose answers, with its alg's options (jose imports a key once per alg).
  const verifyKeys = new WeakMap<CryptoKey, KeyObject | VerifyKeyObjectInput>();
  const verifyKeyOf = (key: CryptoKey, algorithm: Algorithm) => {
    let verifyKey = verifyKeys.get(key);
    if (!verifyKey) {
      const keyObject = KeyObject.from(key);
      verifyKeys.set(key, (verifyKey = algorithm.options ? { key: keyObject, ...algorithm.options } : keyObject));
    }
    return verifyKey;
  };
  const knownHeaders = new Map<string, ReturnType<typeof checkProtectedHeader>>();
  const headerOf = (part: string) => {
    let header = knownHeaders.get(part);
    if (!header) {
      header = Object.freeze(checkProtectedHeader(decodeJson(part)));
      if (knownHeaders.size >= KNOWN_HEADERS_MAX) knownHeaders.clear();
      knownHeaders.set(part, header);
    }
    return header;
  };
  // The key each key set answered for a header (by its text), and until when it is used without asking again.
  const keysAtHand = new WeakMap<JWTVerifyGetKey, Map<string, { key: CryptoKey; until: number }>>();

  const parse = (token: string): Parsed => {
    if (!COMPACT_JWS.test(token)) throw new Error('Not a compact JWS');
    const headerEnd = token.indexOf('.');
    const headerText = token.slice(0, headerEnd);
    const header = headerOf(headerText);
    const algorithm = Object.hasOwn(ALGORITHMS, header.alg) ? ALGORITHMS[header.alg]! : undefined;
    if (!algorithm) throw new Error(`Unsupported alg ${header.alg}`);
    return { header, headerText, algorithm, payloadEnd: token.indexOf('.', headerEnd + 1) };
  };
  const checked = (token: string, { headerText, algorithm, payloadEnd }: Parsed, key: CryptoKey, expected: ExpectedClaims) => {
    const signed = verify(
      algorithm.hash,
      Buffer.from(token.slice(0, payloadEnd), 'latin1'),
      verifyKeyOf(key, algorithm),
      Buffer.from(token.slice(payloadEnd + 1), 'base64url'),
    );
    if (!signed) throw new Error('Bad signature');
    return checkClaims(decodeJson(token.slice(headerText.length + 1, payloadEnd)), expected, Math.floor(Date.now() / 1000));
  };

  const verifier = async (token: string, jwks: JWTVerifyGetKey, expected: ExpectedClaims) => {
    const parsed = parse(token);
    const key = await jwks(parsed.header, { payload: '', signature: '' });
    if (!(key instanceof CryptoKey) || !importedFor(key, parsed.algorithm)) {
      throw new Error(`The key set answered no key for ${parsed.header.alg}`);
    }
    let atHand = keysAtHand.get(jwks);
    if (!atHand) keysAtHand.set(jwks, (atHand = new Map()));
    if (atHand.size >= KNOWN_HEADERS_MAX) atHand.clear();
    atHand.set(parsed.headerText, { key, until: Date.now() + keyAtHandMs });
    return checked(token, parsed, key, expected);
  };
  const atOnce = (token: string, jwks: JWTVerifyGetKey, expected: ExpectedClaims) => {
    const parsed = parse(token);
    const atHand = keysAtHand.get(jwks)?.get(parsed.headerText);
    return atHand && atHand.until > Date.now() ? checked(token, parsed, atHand.key, expected) : undefined;
  };
  return Object.assign(verifier, { atOnce });
};
