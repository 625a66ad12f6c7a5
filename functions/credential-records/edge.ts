import { registerGetCredentialStatus } from '../credential-status/get-credential-status.ts';
import { registerReconcileCredentialStatus } from '../credential-status/reconcile-credential-status.ts';
import { registerSetCredentialStatus } from '../credential-status/set-credential-status.ts';
import { registerCredentialRecords } from '../credentials/records.ts';
import { createGroupApp } from '../platform/create-app.ts';
import { edgeFunction } from '../platform/edge-function.ts';

/**
 * Edge entry (wrangler env `credential-records`): everything under `/api/v1/credentials/{id}`: a record read
 * and deleted (and the list), and its status (the credential-status routes, registered first as on Node), so
 * one zone route, `/api/v1/credentials/*`, can send those paths here. Issuance (`POST /api/v1/credentials`) is
 * not imported: its JSON-LD expansion and RE2 would take the bundle over the budget; it stays a Node function,
 * and so does the list on the same path (a route pattern cannot tell methods apart).
 */
const app = createGroupApp();
registerGetCredentialStatus(app);
registerSetCredentialStatus(app);
registerReconcileCredentialStatus(app);
registerCredentialRecords(app);

export default edgeFunction(app, { path: '/api/v1/credentials', guarded: true });
