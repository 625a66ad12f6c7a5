import { createGroupApp } from '../platform/create-app.ts';
import { registerGetCredentialStatus } from './get-credential-status.ts';
import { registerReconcileCredentialStatus } from './reconcile-credential-status.ts';
import { registerSetCredentialStatus } from './set-credential-status.ts';

/** /api/v1/credentials/{id}/status… (mounted at /credentials beside the credentials group, before it). */
export const credentialStatusApp = createGroupApp();
registerGetCredentialStatus(credentialStatusApp);
registerSetCredentialStatus(credentialStatusApp);
registerReconcileCredentialStatus(credentialStatusApp);
