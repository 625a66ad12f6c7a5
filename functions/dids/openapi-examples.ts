import type * as z from 'zod';
import type { CreateDidBody, DidSchema, ImportDidBody, VerifyResultSchema } from './schemas.ts';

/** The OpenAPI document's examples of DIDs (test/openapi/examples.test.ts checks them against the schemas). */

export const createDidExample: z.input<typeof CreateDidBody> = { type: 'MANAGED', method: 'DID_WEB', alias: 'acme', name: 'Acme Widgets', isDefault: true };

export const createdDidExample: z.input<typeof DidSchema> = {
  id: 'rapzng6d3as7asihkb2rn4c4',
  did: 'did:web:vc.example.com:acme',
  type: 'MANAGED',
  method: 'DID_WEB',
  status: 'ACTIVE',
  alias: 'acme',
  keyId: '1ba4994272933862f358f01b58dc4c6fe7b0fcc041a5f3f4ca4f086015d8ed06',
  name: 'Acme Widgets',
  description: null,
  isDefault: true,
  serviceInstanceId: 'cblr5402swrgad9ai1cxqe5c3',
  isSystemDefault: false,
  createdAt: '2026-11-28T11:51:21.677Z',
  updatedAt: '2026-11-28T11:51:21.677Z',
};

export const importDidExample: z.input<typeof ImportDidBody> = {
  did: 'did:web:acme.example.com',
  method: 'DID_WEB',
  keyId: 'did:web:acme.example.com#key-1',
  serviceInstanceId: 'cblr5402swrgad9ai1cxqe5c3',
  name: 'Acme Widgets (own domain)',
};

export const importedDidExample: z.input<typeof DidSchema> = {
  ...createdDidExample,
  id: 'wq0k3n8b2m5x7c1v4z9l6h2j',
  did: 'did:web:acme.example.com',
  type: 'SELF_MANAGED',
  status: 'UNVERIFIED',
  alias: null,
  keyId: 'did:web:acme.example.com#key-1',
  name: 'Acme Widgets (own domain)',
  isDefault: false,
};

export const didVerifiedExample: z.input<typeof VerifyResultSchema> = {
  verified: true,
  did: { ...importedDidExample, status: 'VERIFIED', updatedAt: '2026-11-28T12:02:11.000Z' },
  checks: [
    { name: 'Resolve', result: 'PASSED', message: 'Fetched https://acme.example.com/.well-known/did.json' },
    { name: 'HTTPS', result: 'PASSED', message: 'Served over HTTPS with a valid certificate' },
    { name: 'Structure', result: 'PASSED', message: 'Valid DID document' },
    { name: 'Identity match', result: 'PASSED', message: 'Document id equals the DID' },
    { name: 'Key material', result: 'PASSED', message: 'All 1 provider key(s) appear in verificationMethod' },
    { name: 'JSON-LD validity', result: 'SKIPPED', message: 'Disabled to avoid fetching untrusted context URLs' },
  ],
};
