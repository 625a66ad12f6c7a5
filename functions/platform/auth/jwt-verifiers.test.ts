import { createHmac, createPublicKey, KeyObject, sign as rsaSign, type JsonWebKey } from 'node:crypto';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { joseJwtVerifier, type JwtVerifier } from './jwt-verifier.ts';
import { createNodeJwtVerifier } from './node-jwt-verifier.ts';

/**
 * The two token checks the web runs (jose on WebCrypto at the edge, fast-jwt on node:crypto in the Node
 * process) must agree on every token: each case below runs through both and expects the same verdict.
 */
const issuer = 'https://id.example.com';
const audience = 'credential-support-service';
const expected = { issuer, audience };
const verifiers: [string, JwtVerifier][] = [
  ['jose (edge)', joseJwtVerifier],
  ['node:crypto (Node web process)', createNodeJwtVerifier()],
];

type Signer = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
let rsa: { privateKey: Signer; publicJwk: Record<string, unknown> };
let ec: { privateKey: Signer };
let stranger: { privateKey: Signer };
let jwks: JWTVerifyGetKey;

beforeAll(async () => {
  const rsaPair = await generateKeyPair('RS256', { extractable: true });
  const ecPair = await generateKeyPair('ES256');
  const strangerPair = await generateKeyPair('RS256');
  const publicJwk = { ...(await exportJWK(rsaPair.publicKey)), kid: 'rsa-1', alg: 'RS256', use: 'sig' };
  rsa = { privateKey: rsaPair.privateKey, publicJwk };
  ec = { privateKey: ecPair.privateKey };
  stranger = { privateKey: strangerPair.privateKey };
  jwks = createLocalJWKSet({ keys: [publicJwk, { ...(await exportJWK(ecPair.publicKey)), kid: 'ec-1', alg: 'ES256', use: 'sig' }] });
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

  it('refuse a critical header parameter it does not understand, and text that is no JWT', async () => {
    const signRs256 = (input: string) => rsaSign('sha256', Buffer.from(input), KeyObject.from(rsa.privateKey as CryptoKey)).toString('base64url');
    await expectAccepted(handMade({ alg: 'RS256', kid: 'rsa-1' }, freshClaims(), signRs256));
    await expectRefused(handMade({ alg: 'RS256', kid: 'rsa-1', crit: ['urn:example:unknown'], 'urn:example:unknown': true }, freshClaims(), signRs256));
    await expectRefused('not-a-jwt');
    await expectRefused('a.b.c');
  });

  it('hold the expected claims of each call, not of the first call that used the key', async () => {
    await expectAccepted(sign({}));
    await expectRefused(sign({}), { issuer, audience: 'another-api' });
    await expectAccepted(sign({ aud: 'another-api' }), { issuer, audience: 'another-api' });
  });
});
