import { canBuildPayload, payloadFromMasterData } from './payload-from-master-data.ts';

/** Example master data (no real party): what a template preview fills its placeholders from. */
const EXAMPLE_ISSUER = 'did:web:issuer.example.com';
const EXAMPLE_REGISTRAR = { name: 'GS1', url: 'https://id.gs1.org' };
const EXAMPLE_GTIN = { value: '09520123456788', scheme: { name: 'Global Trade Item Number (GTIN)', primaryKey: '01', linkTemplate: '/{primaryKey}/{value}', registrar: EXAMPLE_REGISTRAR } };

/**
 * A sample credential of a data model, for previewing its render templates: the console's own payload
 * from example master data where it builds that model, else the fields every UNTP credential has.
 */
export const sampleCredential = (model: { credentialType: string; version: string; contextUrl: string }, now = new Date()): Record<string, unknown> => {
  if (canBuildPayload(model.credentialType, model.version)) {
    return payloadFromMasterData({
      credentialType: model.credentialType,
      version: model.version,
      contextUrl: model.contextUrl,
      issuerDid: EXAMPLE_ISSUER,
      organisation: { id: 'example-organisation', name: 'Example Manufacturing Ltd' },
      facility: { id: 'example-facility', name: 'Example Plant 1' },
      product: { id: 'example-product', name: 'Example Cell A1', level: 'MODEL', primaryIdentifier: EXAMPLE_GTIN },
      countryOfProduction: 'AU',
      now,
    });
  }
  return {
    '@context': ['https://www.w3.org/ns/credentials/v2', model.contextUrl],
    type: ['VerifiableCredential', model.credentialType],
    id: 'urn:uuid:00000000-0000-4000-8000-000000000001',
    issuer: { type: ['CredentialIssuer'], id: EXAMPLE_ISSUER, name: 'Example Manufacturing Ltd' },
    validFrom: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    credentialSubject: { id: 'https://example.com/subject/1', name: `Example ${model.credentialType} subject` },
  };
};
