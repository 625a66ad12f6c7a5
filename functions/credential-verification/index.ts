import { createGroupApp } from '../platform/create-app.ts';
import { verifyBounds } from './bounds.ts';
import { registerVerifyCredentialGet } from './verify-credential-get.ts';
import { registerVerifyCredentialPost } from './verify-credential-post.ts';

/** /api/v1/credentials/verify (public: no session or token; bounded per client and in total). */
export const credentialVerificationApp = createGroupApp();
credentialVerificationApp.use('*', verifyBounds);
registerVerifyCredentialPost(credentialVerificationApp);
registerVerifyCredentialGet(credentialVerificationApp);
