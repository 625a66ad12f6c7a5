import { createGroupApp } from '../platform/create-app.ts';
import { registerIssueCredential } from './issue-credential.ts';
import { registerCredentialRecords } from './records.ts';

/**
 * /api/v1/credentials (issuance and records). Mounted after the /credentials/verify and
 * /credentials/batches groups, so their routes answer before `/{id}` here could.
 */
export const credentialsApp = createGroupApp();
registerIssueCredential(credentialsApp);
registerCredentialRecords(credentialsApp);
