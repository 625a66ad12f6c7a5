import { CompactSign } from 'jose';
import { asObject, invalidArgument } from './errors.ts';
import type { IdentifierStore, SigningKey } from './identifiers.ts';

export interface EnvelopedCredential {
  '@context': unknown;
  type: 'EnvelopedVerifiableCredential';
  id: string;
}

const encoder = new TextEncoder();

/**
 * Enveloped VC-JOSE (contract C.2): the VC JSON as the JWS payload, protected header
 * `{alg: EdDSA, kid: <did>#<pubhex>-JsonWebKey-key-<n>, cty: vc, typ: vc+jwt}` (n: the signing key's place in the document), wrapped as
 * `data:application/vc+jwt,<JWS>`.
 */
export const envelope = async (credential: Record<string, unknown>, did: string, key: SigningKey): Promise<EnvelopedCredential> => {
  const jws = await new CompactSign(encoder.encode(JSON.stringify(credential)))
    .setProtectedHeader({ alg: 'EdDSA', kid: key.methodId, cty: 'vc', typ: 'vc+jwt' })
    .sign(key.privateKey);
  return { '@context': credential['@context'], type: 'EnvelopedVerifiableCredential', id: `data:application/vc+jwt,${jws}` };
};

/** `issuer` or `issuer.id` of a credential, when it is a string. */
export const issuerIdOf = (credential: Record<string, unknown>): string | undefined => {
  const issuer = credential.issuer;
  if (typeof issuer === 'string') return issuer;
  if (issuer && typeof issuer === 'object' && typeof (issuer as { id?: unknown }).id === 'string') return (issuer as { id: string }).id;
  return undefined;
};

/** `POST /v2/credentials/issue`: the request's rules, in the order VCkit applies them. */
export const issueCredential = async (identifiers: IdentifierStore, body: Record<string, unknown>): Promise<EnvelopedCredential> => {
  const credential = asObject(body.credential, 'credential');
  if (body.options !== undefined) {
    const options = asObject(body.options, 'options');
    if (options.proofFormat !== undefined && options.proofFormat !== 'EnvelopingProofJose') {
      throw invalidArgument('options.proofFormat: only EnvelopingProofJose is supported');
    }
  }
  const type = credential.type;
  if (!(Array.isArray(type) ? type.includes('VerifiableCredential') : type === 'VerifiableCredential')) {
    throw invalidArgument('credential.type must include `VerifiableCredential`.');
  }
  const issuer = issuerIdOf(credential);
  const key = issuer === undefined ? undefined : await identifiers.signingKey(issuer);
  if (!issuer || !key) throw invalidArgument('credential.issuer must be a DID managed by this agent.');
  return envelope(credential, issuer, key);
};
