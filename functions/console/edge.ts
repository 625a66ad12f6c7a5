import { masterDataGraph } from '../../db/relational-graphs.ts';
import { edgeFunction } from '../platform/edge-function.ts';
import { createConsoleApp } from './console-app.ts';

/**
 * Edge entry (wrangler env `console`, route `/console*`): the dashboard, credentials, organisations, facilities,
 * products and the assets. The DID, library, template, batch, identifier/scheme/registrar and issue pages have edge
 * entries of their own (functions/console-dids, console-library, console-templates, console-batches,
 * console-registry, console-issue) behind more specific routes: beside the console's own pages they would pass the
 * 500 KB budget. The session check runs inside the group (a missing session is a redirect to sign-in), so the
 * platform's guard is off here.
 */
export default edgeFunction(createConsoleApp(), { path: '/console', guarded: false, graph: masterDataGraph });
