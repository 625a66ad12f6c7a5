import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../platform/env.ts';
import { registerDeleteCredential } from './delete-credential.ts';
import { registerGetCredential } from './get-credential.ts';
import { registerGetCredentialQr } from './get-credential-qr.ts';
import { registerListCredentials } from './list-credentials.ts';

/**
 * The credential records: list, read, its QR code, delete. Apart from issuance so that an entry can serve them without
 * issuance's JSON-LD expansion and RE2 (functions/credential-records/edge.ts).
 */
export const registerCredentialRecords = (app: OpenAPIHono<AppEnv>) => {
  registerListCredentials(app);
  registerGetCredential(app);
  registerGetCredentialQr(app);
  registerDeleteCredential(app);
};
