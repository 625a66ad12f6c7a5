import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../platform/env.ts';
import { registerDeleteCredential } from './delete-credential.ts';
import { registerGetCredential } from './get-credential.ts';
import { registerListCredentials } from './list-credentials.ts';

/**
 * The credential records: list, read, delete. Apart from issuance so that an entry can serve them without
 * issuance's JSON-LD expansion and RE2 (functions/credential-records/edge.ts).
 */
export const registerCredentialRecords = (app: OpenAPIHono<AppEnv>) => {
  registerListCredentials(app);
  registerGetCredential(app);
  registerDeleteCredential(app);
};
