import { masterDataGraph } from '../../db/relational-graphs.ts';
import { edgeFunction } from '../platform/edge-function.ts';
import { createConsoleApp } from './console-app.ts';

/**
 * Edge entry (wrangler env `console`): every console page but issuance, whose payload checks (JSON-LD
 * expansion) need Node, as POST /credentials does, batches (the job queue), DIDs (kept out of this bundle's budget) and the identifier, scheme and
 * registrar pages (RE2); route `/console/issue*`, `/console/batches*`, `/console/dids*`, `/console/identifiers*`,
 * `/console/schemes*` and `/console/registrars*` to the Node web process. The
 * session check runs inside the group (a missing session is a redirect to sign-in), so the platform's
 * own guard is off here.
 */
export default edgeFunction(createConsoleApp(), { path: '/console', guarded: false, graph: masterDataGraph });
