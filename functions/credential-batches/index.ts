import { createGroupApp } from '../platform/create-app.ts';
import { registerCancelBatch } from './cancel-batch.ts';
import { registerGetBatch } from './get-batch.ts';
import { registerSubmitBatch } from './submit-batch.ts';

/** /api/v1/credentials/batches: mounted before /credentials, whose `/{id}` would otherwise answer first. */
export const credentialBatchesApp = createGroupApp();
registerSubmitBatch(credentialBatchesApp);
registerGetBatch(credentialBatchesApp);
registerCancelBatch(credentialBatchesApp);
