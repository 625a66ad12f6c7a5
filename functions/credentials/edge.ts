import { identifierGraph } from '../../db/relational-graphs.ts';
import { createGroupApp } from '../platform/create-app.ts';
import { edgeFunction } from '../platform/edge-function.ts';
import { registerIssueCredential } from './issue-credential.ts';
import { registerListCredentials } from './list-credentials.ts';

/**
 * Edge entry (wrangler env `credentials`): issuance, `POST /api/v1/credentials`, and the list that shares its path (a
 * zone route cannot tell methods apart). Its zone route is that exact path: `/api/v1/credentials/{id}…` stays with
 * functions/credential-records/edge.ts, and the longer routes of verify and batches win over both.
 */
const app = createGroupApp();
registerIssueCredential(app);
registerListCredentials(app);

// Publishing at issuance reads the identifier with its scheme and qualifiers (db.query).
export default edgeFunction(app, { path: '/api/v1/credentials', guarded: true, graph: identifierGraph });
