import { createGroupApp } from '../platform/create-app.ts';
import { registerDeleteCredential } from './delete-credential.ts';
import { registerGetCredential } from './get-credential.ts';
import { registerGetCredentialQr } from './get-credential-qr.ts';
import { registerIssueCredential } from './issue-credential.ts';
import { registerListCredentials } from './list-credentials.ts';

/**
 * /api/v1/credentials (issuance and records). Mounted after the /credentials/verify and
 * /credentials/batches groups, so their routes answer before `/{id}` here could.
 */
export const credentialsApp = createGroupApp();
registerIssueCredential(credentialsApp);
registerListCredentials(credentialsApp);
registerGetCredential(credentialsApp);
registerGetCredentialQr(credentialsApp);
registerDeleteCredential(credentialsApp);
