import type * as z from 'zod';
import { DPP_PAYLOAD_EXAMPLE } from '../credentials/openapi-examples.ts';
import type { VerifyBody, VerifyResultSchema } from './schemas.ts';

/** The OpenAPI document's examples of verification (test/openapi/examples.test.ts checks them against the schemas). */

export const verifyRequestExample: z.input<typeof VerifyBody> = {
  uri: 'https://storage.example.com/api/v4/files/d6fdfa33-6355-4d4f-9d2c-81e2f6c845fe.json',
  digestMultibase: 'zQmXsKwHDkuLF5CirCM26Gswx3y7eXVZAy7YUXkiKP2aJq4',
  decryptionKey: '26dccc543323c133f6ec6386580b794585d22bc3fee1990bfa78d5530552188e',
};

export const verifyResultExample: z.input<typeof VerifyResultSchema> = {
  verified: true,
  credential: {
    '@context': ['https://www.w3.org/ns/credentials/v2', 'https://vocabulary.uncefact.org/untp/0.7.0/context/'],
    type: 'EnvelopedVerifiableCredential',
    id: 'data:application/vc+jwt,eyJhbGciOiJFZERTQSIsImN0eSI6InZjIiwidHlwIjoidmMrand0In0.eyJ0eXBlIjpbIkRpZ2l0YWxQcm9kdWN0UGFzc3BvcnQiXX0.c2lnbmF0dXJl',
  },
  decodedCredential: {
    ...DPP_PAYLOAD_EXAMPLE,
    credentialStatus: [{
      id: 'https://credentials.example.com/credentials/status/bitstring-status-list/1#0',
      type: 'BitstringStatusListEntry',
      statusPurpose: 'revocation',
      statusListIndex: 0,
      statusListCredential: 'https://credentials.example.com/credentials/status/bitstring-status-list/1',
    }],
  },
};
