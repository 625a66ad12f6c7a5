import type * as z from 'zod';
import type { IssuanceRequestSchema } from '../../core/credentials/issuance-request.ts';
import type { IssuedSchema } from './schemas.ts';

/** The OpenAPI document's examples of issuance (test/openapi/examples.test.ts checks them against the schemas). */

/** An unsigned UNTP 0.7.0 Digital Product Passport, issued by the tenant's DID. */
export const DPP_PAYLOAD_EXAMPLE = {
  '@context': ['https://www.w3.org/ns/credentials/v2', 'https://vocabulary.uncefact.org/untp/0.7.0/context/'],
  type: ['DigitalProductPassport', 'VerifiableCredential'],
  id: 'https://credentials.example.com/dpp/widget-2026-0042',
  issuer: { type: ['CredentialIssuer'], id: 'did:web:vc.example.com:acme', name: 'Acme Widgets Ltd' },
  validFrom: '2026-01-01T00:00:00Z',
  validUntil: '2030-01-01T00:00:00Z',
  name: 'Digital Product Passport — Acme Widget W-42',
  credentialSubject: {
    type: ['Product'],
    id: 'https://id.example.com/01/09520123456788/10/LOT42',
    name: 'Acme Widget W-42',
    idScheme: { type: ['IdentifierScheme'], id: 'https://id.gs1.org/01/', name: 'Global Trade Item Number (GTIN)' },
    idGranularity: 'batch',
    batchNumber: 'LOT42',
    productCategory: [{
      code: '46910',
      name: 'Electric accumulators',
      schemeId: 'https://unstats.un.org/unsd/classifications/Econ/cpc/',
      schemeName: 'UN Central Product Classification (CPC)',
    }],
    producedAtFacility: { type: ['Facility'], id: 'https://id.example.com/414/9520123456781', name: 'Acme Widgets plant 1' },
    countryOfProduction: { countryCode: 'AU' },
  },
};

export const issueRequestExample: z.input<typeof IssuanceRequestSchema> = {
  credentialType: 'DigitalProductPassport',
  version: '0.7.0',
  credentialPayload: DPP_PAYLOAD_EXAMPLE,
  statusPurposes: ['revocation'],
  storageOptions: { encrypt: true },
};

export const issuedExample: z.input<typeof IssuedSchema> = { credentialId: 'ckv9x2l0k0000qzrm8d1b2c3d' };
