import type * as z from 'zod';
import type { RegisterExternalBody, sourceEncryptionField } from './annotation-fields.ts';
import type { CredentialRecordSchema } from './schemas.ts';

/** The OpenAPI document's examples of the library (test/openapi/examples.test.ts checks them against the schemas). */

const SUPPLIER_KEY = '26dccc543323c133f6ec6386580b794585d22bc3fee1990bfa78d5530552188e';

export const registerExternalExample: z.input<typeof RegisterExternalBody> = {
  sourceUrl: 'https://supplier.example.com/credentials/dpp-42.json',
  sourceEncryption: { decryptionKey: SUPPLIER_KEY, encryptionMethod: 'AES-256-GCM' },
  annotations: { displayName: 'Supplier passport', declaredCredentialType: 'DPP', dateReceived: '2026-11-28', notes: 'Lot 42 from Copper Mine' },
  tags: ['copper', 'lot-42'],
};

export const registeredRecordExample: z.input<typeof CredentialRecordSchema> = {
  id: 'jew59vgrgssy24w5i0mxrr8r',
  origin: 'external',
  credential: {
    name: 'Digital Product Passport — Copper Concentrate (Cu 30%)',
    credentialType: 'DPP',
    issuerName: 'Sample Copper Mine Pty Ltd',
    issuerDid: 'did:web:supplier.example.com',
    subjectName: 'Copper Concentrate (Cu 30%)',
    subjectId: 'https://id.supplier.example.com/product/cu-conc-2025',
    validFrom: '2026-11-28T11:51:52.000Z',
    validUntil: '2027-11-28T11:51:52.000Z',
  },
  annotations: { annotationVersion: 1, displayName: 'Supplier passport', declaredCredentialType: 'DPP', dateReceived: '2026-11-28', notes: 'Lot 42 from Copper Mine' },
  tags: ['copper', 'lot-42'],
  tagVersion: 1,
  organisationId: null,
  facilityId: null,
  productId: null,
  sourceUrl: 'https://supplier.example.com/credentials/dpp-42.json',
  sourceDigest: 'zQmczWTRYkQ1w3ZzAEiJoGfnGqZXS9ofLQtL9W99ESL8Lsp',
  resolverUri: null,
  issuedAt: '2026-11-28T11:51:52.000Z',
  encrypted: true,
  hasKey: true,
  verification: {
    generation: 1,
    state: 'pending',
    requestedAt: '2026-11-28T11:51:53.852Z',
    checks: { retrieval: 'not_run', decryption: 'not_run', digest: 'not_run', proof: 'not_run', status: 'not_run', temporal: 'not_run', schemaConformance: 'not_run' },
    summary: 'pending',
  },
  currencyStatus: 'current',
  detailsStatus: 'EXTRACTED',
  detailsError: null,
  status: null,
  lifecycle: null,
  capabilities: { deletable: true, annotatable: true, taggable: true, verifiable: true, statusManageable: false },
  warnings: [],
  createdAt: '2026-11-28T11:51:53.852Z',
  updatedAt: '2026-11-28T11:51:53.852Z',
};

export const reverifyExample: { sourceEncryption: z.input<typeof sourceEncryptionField> } = { sourceEncryption: { decryptionKey: SUPPLIER_KEY } };

/** The same record with its next verification generation pending. */
export const reverifyingRecordExample: z.input<typeof CredentialRecordSchema> = {
  ...registeredRecordExample,
  verification: { ...registeredRecordExample.verification, generation: 2, requestedAt: '2026-11-29T09:00:00.000Z' },
  updatedAt: '2026-11-29T09:00:00.000Z',
};
