/**
 * The DID document shape of W3C DID Core 1.0 (§4 data model, §5 core properties) as a JSON Schema:
 * `id` a DID; `controller` a DID or a set of DIDs; `alsoKnownAs` URIs; verification methods with
 * `id`, `type`, `controller` and one public key form; verification relationships as method ids
 * (DID URLs) or embedded methods; services with `id`, `type` and `serviceEndpoint`.
 */
const did = { type: 'string', pattern: '^did:[a-z0-9]+:[A-Za-z0-9._%:-]*[A-Za-z0-9._%-]$' } as const;
const didUrl = { type: 'string', pattern: '^(did:[a-z0-9]+:[^\\s]+|#[^\\s]+)$' } as const;
const nonEmpty = { type: 'string', minLength: 1 } as const;
const oneOrMany = (schema: object) => ({ anyOf: [schema, { type: 'array', items: schema, uniqueItems: true }] });

const verificationMethod = {
  type: 'object',
  required: ['id', 'type', 'controller'],
  properties: {
    id: didUrl,
    type: nonEmpty,
    controller: did,
    publicKeyJwk: { type: 'object', required: ['kty'], properties: { kty: nonEmpty, d: false } },
    publicKeyMultibase: { type: 'string', pattern: '^z[1-9A-HJ-NP-Za-km-z]+$' },
  },
} as const;

const relationship = { type: 'array', items: { anyOf: [didUrl, verificationMethod] } } as const;

export const didDocumentSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'DID document (W3C DID Core 1.0)',
  type: 'object',
  required: ['id'],
  properties: {
    '@context': oneOrMany({ anyOf: [{ type: 'string' }, { type: 'object' }] }),
    id: did,
    alsoKnownAs: { type: 'array', items: { type: 'string', format: 'uri' } },
    controller: oneOrMany(did),
    verificationMethod: { type: 'array', items: verificationMethod },
    authentication: relationship,
    assertionMethod: relationship,
    keyAgreement: relationship,
    capabilityInvocation: relationship,
    capabilityDelegation: relationship,
    service: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'type', 'serviceEndpoint'],
        properties: {
          id: { type: 'string', format: 'uri' },
          type: oneOrMany(nonEmpty),
          serviceEndpoint: oneOrMany({ anyOf: [{ type: 'string', format: 'uri' }, { type: 'object' }] }),
        },
      },
    },
  },
} as const;
