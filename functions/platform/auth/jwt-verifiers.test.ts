import { constants, createHmac, createPublicKey, generateKeyPairSync, KeyObject, sign as rsaSign, type JsonWebKey } from 'node:crypto';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { joseJwtVerifier, type JwtVerifier } from './jwt-verifier.ts';
import { createNodeJwtVerifier } from './node-jwt-verifier.ts';

const checkedInFull = createNodeJwtVerifier();
/**
 * Our check as `atOnce` answers it: the token's header seen once by the full check (which keeps the key the
 * set gave for it at hand, whatever its verdict on the token), then the token checked again at once.
 */
const checkedAtOnce: JwtVerifier = async (token, keys, against) => {
  await checkedInFull(token, keys, against).catch(() => undefined);
  const payload = checkedInFull.atOnce!(token, keys, against);
  if (payload === undefined) throw new Error('No key at hand: the key set has none for this header');
  return payload;
};

/**
 * The two token checks the web runs (jose on WebCrypto at the edge, our own on node:crypto in the Node
 * process) must agree on every token: each case below runs through both and expects the same verdict.
 */
const issuer = 'https://id.example.com';
const audience = 'credential-support-service';
const expected = { issuer, audience };
const verifiers: [string, JwtVerifier][] = [
  ['jose (edge)', joseJwtVerifier],
  ['node:crypto (Node web process)', createNodeJwtVerifier()],
  ['node:crypto, key at hand (Node web process)', checkedAtOnce],
];

type Signer = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
let rsa: { privateKey: Signer; publicJwk: Record<string, unknown> };
let ec: { privateKey: Signer };
let stranger: { privateKey: Signer };
let pss: { privateKey: Signer };
let ed: { privateKey: Signer };
let ec384: { privateKey: Signer };
/** A 1024-bit RSA key in the set: too short for either check. */
let small: KeyObject;
let jwks: JWTVerifyGetKey;

beforeAll(async () => {
  const rsaPair = await generateKeyPair('RS256', { extractable: true });
  const ecPair = await generateKeyPair('ES256');
  const strangerPair = await generateKeyPair('RS256');
  const pssPair = await generateKeyPair('PS256');
  const edPair = await generateKeyPair('EdDSA');
  const ec384Pair = await generateKeyPair('ES384');
  const smallPair = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const publicJwk = { ...(await exportJWK(rsaPair.publicKey)), kid: 'rsa-1', alg: 'RS256', use: 'sig' };
  rsa = { privateKey: rsaPair.privateKey, publicJwk };
  ec = { privateKey: ecPair.privateKey };
  stranger = { privateKey: strangerPair.privateKey };
  pss = { privateKey: pssPair.privateKey };
  ed = { privateKey: edPair.privateKey };
  ec384 = { privateKey: ec384Pair.privateKey };
  small = smallPair.privateKey;
  jwks = createLocalJWKSet({
    keys: [
      publicJwk,
      { ...(await exportJWK(ecPair.publicKey)), kid: 'ec-1', alg: 'ES256', use: 'sig' },
      { ...(await exportJWK(pssPair.publicKey)), kid: 'pss-1', alg: 'PS256', use: 'sig' },
      { ...(await exportJWK(edPair.publicKey)), kid: 'ed-1', alg: 'EdDSA', use: 'sig' },
      { ...(await exportJWK(ec384Pair.publicKey)), kid: 'ec384-1', use: 'sig' },
      { ...(smallPair.publicKey.export({ format: 'jwk' }) as Record<string, unknown>), kid: 'small-1', alg: 'RS256', use: 'sig' },
    ],
  });
});

const sign = (
  claims: JWTPayload,
  options: { alg?: string; kid?: string; key?: Signer; header?: Record<string, unknown>; expiresIn?: string | number } = {},
) => {
  const jwt = new SignJWT({ sub: 'svc', ...claims })
    .setProtectedHeader({ alg: options.alg ?? 'RS256', kid: options.kid ?? 'rsa-1', ...options.header })
    .setIssuer(typeof claims.iss === 'string' ? claims.iss : issuer)
    .setAudience(claims.aud ?? audience)
    .setIssuedAt();
  jwt.setExpirationTime(options.expiresIn ?? '1h');
  return jwt.sign(options.key ?? rsa.privateKey);
};

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');
/** A token whose parts are written by hand (for headers jose refuses to sign). */
const handMade = (header: object, payload: object, signature: (input: string) => string) => {
  const input = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
  return `${input}.${signature(input)}`;
};
const freshClaims = () => ({ sub: 'svc', iss: issuer, aud: audience, exp: Math.floor(Date.now() / 1000) + 3600 });

const verdicts = async (token: string | Promise<string>, against = expected) => {
  const text = await token;
  return Promise.all(
    verifiers.map(async ([name, verify]) => {
      try {
        const payload = await verify(text, jwks, against);
        return { name, accepted: true, sub: payload.sub };
      } catch {
        return { name, accepted: false };
      }
    }),
  );
};

const expectAccepted = async (token: string | Promise<string>, against = expected) => {
  for (const verdict of await verdicts(token, against)) expect(verdict, verdict.name).toEqual({ name: verdict.name, accepted: true, sub: 'svc' });
};
const expectRefused = async (token: string | Promise<string>, against = expected) => {
  for (const verdict of await verdicts(token, against)) expect(verdict, verdict.name).toEqual({ name: verdict.name, accepted: false });
};

describe('JWT verifiers: jose and node:crypto give the same verdict', () => {
  it('accept a token of the IDP for the expected audience (RS256 and ES256 keys of the set)', async () => {
    await expectAccepted(sign({}));
    await expectAccepted(sign({}, { alg: 'ES256', kid: 'ec-1', key: ec.privateKey }));
    await expectAccepted(sign({ aud: ['another-api', audience] }));
  });

  it('accept every asymmetric alg a key of the set was published for (PS256, EdDSA, and ES384 from a key naming no alg)', async () => {
    await expectAccepted(sign({}, { alg: 'PS256', kid: 'pss-1', key: pss.privateKey }));
    await expectAccepted(sign({}, { alg: 'EdDSA', kid: 'ed-1', key: ed.privateKey }));
    await expectAccepted(sign({}, { alg: 'ES384', kid: 'ec384-1', key: ec384.privateKey }));
  });

  it('refuse an RSA key shorter than 2048 bits, and a PSS signature checked as PKCS #1 v1.5', async () => {
    const smallSigned = (input: string) => rsaSign('sha256', Buffer.from(input), small).toString('base64url');
    await expectRefused(handMade({ alg: 'RS256', kid: 'small-1' }, freshClaims(), smallSigned));
    const pssSigned = (input: string) =>
      rsaSign('sha256', Buffer.from(input), {
        key: KeyObject.from(rsa.privateKey as CryptoKey),
        padding: constants.RSA_PKCS1_PSS_PADDING,
        saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
      }).toString('base64url');
    await expectRefused(handMade({ alg: 'RS256', kid: 'rsa-1' }, freshClaims(), pssSigned));
    await expectRefused(handMade({ alg: 'PS256', kid: 'rsa-1' }, freshClaims(), pssSigned));
  });

  it('refuse claims of the wrong type or missing: iss, aud, exp, nbf, iat, and a claims set that is no object', async () => {
    const signRs256 = (input: string) => rsaSign('sha256', Buffer.from(input), KeyObject.from(rsa.privateKey as CryptoKey)).toString('base64url');
    const header = { alg: 'RS256', kid: 'rsa-1' };
    const { iss: _iss, ...noIssuer } = freshClaims();
    const { aud: _aud, ...noAudience } = freshClaims();
    await expectRefused(handMade(header, noIssuer, signRs256));
    await expectRefused(handMade(header, noAudience, signRs256));
    await expectRefused(handMade(header, { ...freshClaims(), exp: String(Math.floor(Date.now() / 1000) + 3600) }, signRs256));
    await expectRefused(handMade(header, { ...freshClaims(), nbf: '0' }, signRs256));
    await expectRefused(handMade(header, { ...freshClaims(), iat: 'now' }, signRs256));
    await expectRefused(handMade(header, { ...freshClaims(), aud: [1, 2] }, signRs256));
    await expectRefused(handMade(header, [freshClaims()], signRs256));
    const { exp: _exp, ...noExpiry } = freshClaims();
    await expectAccepted(handMade(header, noExpiry, signRs256));
  });

  it('refuse an expired token and one not yet valid', async () => {
    await expectRefused(sign({}, { expiresIn: Math.floor(Date.now() / 1000) - 5 }));
    await expectRefused(sign({ nbf: Math.floor(Date.now() / 1000) + 300 }));
  });

  it('refuse another audience or another issuer', async () => {
    await expectRefused(sign({ aud: 'another-api' }));
    await expectRefused(sign({ iss: 'https://other.example.com' }));
    await expectRefused(sign({}), { issuer, audience: 'another-api' });
    await expectRefused(sign({}), { issuer: 'https://other.example.com', audience });
  });

  it('refuse a signature by a key outside the set, a tampered payload and an unknown kid', async () => {
    await expectRefused(sign({}, { key: stranger.privateKey }));
    const [header, , signature] = (await sign({})).split('.');
    await expectRefused(`${header}.${base64url(JSON.stringify({ ...freshClaims(), sub: 'admin' }))}.${signature}`);
    await expectRefused(sign({}, { kid: 'rsa-2' }));
  });

  it('refuse alg confusion: none, an HMAC keyed with the public key, and an alg its key cannot have', async () => {
    await expectRefused(handMade({ alg: 'none', kid: 'rsa-1' }, freshClaims(), () => ''));
    const publicPem = createPublicKey({ key: rsa.publicJwk as JsonWebKey, format: 'jwk' }).export({ type: 'spki', format: 'pem' });
    await expectRefused(handMade({ alg: 'HS256', kid: 'rsa-1' }, freshClaims(), (input) => createHmac('sha256', publicPem).update(input).digest('base64url')));
    await expectRefused(sign({}, { alg: 'ES256', kid: 'rsa-1', key: ec.privateKey }));
    await expectRefused(sign({}, { alg: 'RS256', kid: 'ec-1' }));
  });

  it('refuse a critical header parameter it does not understand, and text that is no JWT or no UTF-8', async () => {
    const signRs256 = (input: string) => rsaSign('sha256', Buffer.from(input), KeyObject.from(rsa.privateKey as CryptoKey)).toString('base64url');
    await expectAccepted(handMade({ alg: 'RS256', kid: 'rsa-1' }, freshClaims(), signRs256));
    await expectRefused(handMade({ alg: 'RS256', kid: 'rsa-1', crit: ['urn:example:unknown'], 'urn:example:unknown': true }, freshClaims(), signRs256));
    await expectRefused('not-a-jwt');
    await expectRefused('a.b.c');
    const good = await handMade({ alg: 'RS256', kid: 'rsa-1' }, freshClaims(), signRs256);
    await expectRefused(`${good}!`);
    const [headerPart, payloadPart, signaturePart] = good.split('.') as [string, string, string];
    await expectRefused(`${good}.${signaturePart}`);
    await expectRefused(`${headerPart}.${payloadPart}.${signaturePart.slice(0, 20)}!${signaturePart.slice(20)}`);
    await expectRefused(`${headerPart}.${payloadPart}.${signaturePart.slice(0, 20)}.${signaturePart.slice(20)}`);
    await expectRefused(good.split('.').slice(0, 2).join('.'));
    const headerText = (text: string) => {
      const input = `${base64url(text)}.${base64url(JSON.stringify(freshClaims()))}`;
      return `${input}.${signRs256(input)}`;
    };
    await expectRefused(headerText('{"alg":"RS256","kid":"rsa-1"'));
    await expectRefused(headerText('["RS256"]'));
    const bytesPayload = (payload: Buffer) => {
      const input = `${base64url(JSON.stringify({ alg: 'RS256', kid: 'rsa-1' }))}.${payload.toString('base64url')}`;
      return `${input}.${signRs256(input)}`;
    };
    const claimsText = JSON.stringify({ ...freshClaims(), name: '__' });
    const at = claimsText.indexOf('__');
    const withBytes = (bytes: number[]) => Buffer.concat([Buffer.from(claimsText.slice(0, at)), Buffer.from(bytes), Buffer.from(claimsText.slice(at + 2))]);
    await expectAccepted(bytesPayload(withBytes([0xc3, 0xa9]))); // é
    await expectRefused(bytesPayload(withBytes([0xff, 0xfe]))); // no UTF-8
  });

  it('understand b64 as a critical extension: a JWT must keep its payload encoded', async () => {
    const signRs256 = (input: string) => rsaSign('sha256', Buffer.from(input), KeyObject.from(rsa.privateKey as CryptoKey)).toString('base64url');
    await expectAccepted(handMade({ alg: 'RS256', kid: 'rsa-1', crit: ['b64'], b64: true }, freshClaims(), signRs256));
    await expectAccepted(handMade({ alg: 'RS256', kid: 'rsa-1', b64: false }, freshClaims(), signRs256));
    await expectRefused(handMade({ alg: 'RS256', kid: 'rsa-1', crit: ['b64'], b64: false }, freshClaims(), signRs256));
    await expectRefused(handMade({ alg: 'RS256', kid: 'rsa-1', crit: ['b64'] }, freshClaims(), signRs256));
    await expectRefused(handMade({ alg: 'RS256', kid: 'rsa-1', crit: ['b64'], b64: 'yes' }, freshClaims(), signRs256));
    await expectRefused(handMade({ alg: 'RS256', kid: 'rsa-1', crit: [] }, freshClaims(), signRs256));
    await expectRefused(handMade({ alg: 'RS256', kid: 'rsa-1', crit: ['urn:example:unknown'], 'urn:example:unknown': true, b64: true }, freshClaims(), signRs256));
  });

  it('hold the expected claims of each call, not of the first call that used the key', async () => {
    await expectAccepted(sign({}));
    await expectRefused(sign({}), { issuer, audience: 'another-api' });
    await expectAccepted(sign({ aud: 'another-api' }), { issuer, audience: 'another-api' });
  });
});

describe('node:crypto verifier: the key at hand', () => {
  it('answers at once only for a header whose key that very key set gave within keyAtHandMs', async () => {
    const verifier = createNodeJwtVerifier({ keyAtHandMs: 300 });
    let published = jwks;
    const idp: JWTVerifyGetKey = (header, token) => published(header, token);
    const token = await sign({});
    expect(verifier.atOnce!(token, idp, expected)).toBeUndefined(); // nothing at hand yet
    expect((await verifier(token, idp, expected)).sub).toBe('svc');
    expect(verifier.atOnce!(token, idp, expected)?.sub).toBe('svc');
    const another = await sign({ jti: 'another' });
    expect(verifier.atOnce!(another, idp, expected)?.jti).toBe('another'); // the same header
    expect(verifier.atOnce!(token, jwks, expected)).toBeUndefined(); // another key set
    const otherHeader = await sign({}, { alg: 'ES256', kid: 'ec-1', key: ec.privateKey });
    expect(verifier.atOnce!(otherHeader, idp, expected)).toBeUndefined(); // another header
    published = createLocalJWKSet({ keys: [] }); // the IDP stops publishing the key
    expect(verifier.atOnce!(token, idp, expected)?.sub).toBe('svc'); // still at hand, for at most keyAtHandMs
    await sleep(350);
    expect(verifier.atOnce!(token, idp, expected)).toBeUndefined();
    await expect(verifier(token, idp, expected)).rejects.toThrow();
  });

  it('refuses at once a bad token under a header whose key is at hand: forged, expired, for another audience', async () => {
    const verifier = createNodeJwtVerifier();
    await verifier(await sign({}), jwks, expected);
    const [header, payload] = (await sign({})).split('.');
    const forged = `${header}.${payload}.${(await sign({}, { key: stranger.privateKey })).split('.')[2]}`;
    expect(() => verifier.atOnce!(forged, jwks, expected)).toThrow('Bad signature');
    expect(() => verifier.atOnce!(`${header}.${payload}`, jwks, expected)).toThrow('Not a compact JWS');
    const expired = await sign({}, { expiresIn: Math.floor(Date.now() / 1000) - 5 });
    expect(() => verifier.atOnce!(expired, jwks, expected)).toThrow('The token has expired');
    const elsewhere = await sign({ aud: 'another-api' });
    expect(() => verifier.atOnce!(elsewhere, jwks, expected)).toThrow('Unexpected aud');
  });
});
