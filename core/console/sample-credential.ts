import { canBuildPayload, payloadFromMasterData } from './payload-from-master-data.ts';

/** Example master data (no real party): what a template preview fills its placeholders from. */
const EXAMPLE_ISSUER = 'did:web:issuer.example.com';
const EXAMPLE_REGISTRAR = { name: 'GS1', url: 'https://id.gs1.org' };
const gs1 = (value: string, name: string, primaryKey: string) => ({ value, scheme: { name, primaryKey, linkTemplate: '/{primaryKey}/{value}', registrar: EXAMPLE_REGISTRAR } });

/** Every type's master data and typed values, so each builder has what it asks for. */
export const EXAMPLE_CHOICES = {
  issuerDid: EXAMPLE_ISSUER,
  organisation: { id: 'example-organisation', name: 'Example Manufacturing Ltd', primaryIdentifier: gs1('9520000000003', 'Global Location Number (GLN)', '417') },
  facility: { id: 'example-facility', name: 'Example Plant 1', primaryIdentifier: gs1('9520123456788', 'Global Location Number (GLN)', '414') },
  product: { id: 'example-product', name: 'Example Cell A1', level: 'MODEL' as const, primaryIdentifier: gs1('09520123456788', 'Global Trade Item Number (GTIN)', '01') },
  conformityScheme: { id: 'https://scheme.example.com/battery-esg', name: 'Example Battery ESG Scheme', owner: { id: 'https://scheme.example.com', name: 'Example Scheme Owner' } },
  conformityProfile: { id: 'https://scheme.example.com/battery-esg/profile/emissions', name: 'Emissions profile', version: '1.0.0', validFrom: '2025-01-01' },
  values: {
    countryOfProduction: 'AU',
    countryOfOperation: 'AU',
    streetAddress: '1 Example Street',
    postalCode: '2600',
    addressLocality: 'Canberra',
    addressRegion: 'ACT',
    attestationName: 'Example emissions certificate',
    attestationType: 'certification',
    registeredDate: '2020-01-01',
  },
};

/** The assurance levels differ by version; the sample takes a valid one of each. */
const levels = (version: string) =>
  version.startsWith('0.6.') ? { assessorLevel: '3rdParty', assessmentLevel: 'Accredited' } : { assessorLevel: '3rdParty', assessmentLevel: 'scheme-cab' };

/**
 * A sample credential of a data model, for previewing its render templates: the console's own payload from
 * example master data where it builds that model (every core type and version), else the fields every UNTP
 * credential has.
 */
export const sampleCredential = (model: { credentialType: string; version: string; contextUrl: string }, now = new Date()): Record<string, unknown> => {
  if (canBuildPayload(model.credentialType, model.version)) {
    return payloadFromMasterData({ ...model, ...EXAMPLE_CHOICES, values: { ...EXAMPLE_CHOICES.values, ...levels(model.version) }, now });
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

