import { decodeJwt } from 'jose';
import { withinDepth } from './json-depth.ts';
import { VerificationStop, type EnvelopedCredential } from './outcome.ts';

const ENVELOPED = 'EnvelopedVerifiableCredential';
/** VC-JOSE: the credential is a compact JWS in a data: URL (`data:application/vc+jwt,<JWS>`; older issuers wrote `vc-ld+jwt`). */
const JWT_DATA_URL = /^data:application\/(vc\+jwt|vc-ld\+jwt|vc\+ld\+jwt),/;

/** Requires an EnvelopedVerifiableCredential whose id is a VC-JOSE data: URL (UNSUPPORTED_CREDENTIAL_TYPE otherwise). */
export const requireEnvelopedCredential = (document: Record<string, unknown>): EnvelopedCredential => {
  const types = Array.isArray(document.type) ? document.type : [document.type];
  if (!types.includes(ENVELOPED)) {
    throw new VerificationStop('UNSUPPORTED_CREDENTIAL_TYPE', `Only ${ENVELOPED} credentials (VC-JOSE) are supported`);
  }
  if (typeof document.id !== 'string' || !JWT_DATA_URL.test(document.id)) {
    throw new VerificationStop('UNSUPPORTED_CREDENTIAL_TYPE', `The ${ENVELOPED} id must be a data:application/vc+jwt URL`);
  }
  return document as EnvelopedCredential;
};

/** The JWS payload as a JSON object (not verified here), or undefined when it is not one or nests too deep to show. */
export const decodeEnvelopedPayload = (credential: EnvelopedCredential): Record<string, unknown> | undefined => {
  try {
    const payload = decodeJwt(credential.id.slice(credential.id.indexOf(',') + 1)) as Record<string, unknown>;
    return withinDepth(payload) ? payload : undefined;
  } catch {
    return undefined;
  }
};
