import { jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';

/** What a token must show besides a good signature: who issued it and for whom. */
export interface ExpectedClaims {
  issuer: string;
  audience: string;
}

/**
 * Checks a compact JWS against the IDP's key set (`jwks`, jose's remote set: it picks the key by the
 * token's `kid` and `alg`) and the expected issuer and audience, and checks `exp` and `nbf`; answers the
 * payload, or throws for any failure. The Authenticator turns a throw into a 401.
 */
export type JwtVerifier = ((token: string, jwks: JWTVerifyGetKey, expected: ExpectedClaims) => Promise<JWTPayload>) & {
  /**
   * The same check, answered at once when it need await nothing (the key for the token's header is at
   * hand): the payload, a throw for what the check refuses, or undefined when only the full check can tell.
   */
  atOnce?: (token: string, jwks: JWTVerifyGetKey, expected: ExpectedClaims) => JWTPayload | undefined;
};

/** jose's check on WebCrypto: runs on every runtime (the edge functions' verifier, and the default). */
export const joseJwtVerifier: JwtVerifier = async (token, jwks, expected) => (await jwtVerify(token, jwks, expected)).payload;
