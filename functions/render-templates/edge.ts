import { edgeFunction } from '../platform/edge-function.ts';
import { renderTemplatesApp } from './index.ts';

/** Edge entry (wrangler env `render-templates`): this group alone, behind the shared platform; templates are sanitised in the request. */
export default edgeFunction(renderTemplatesApp, { path: '/api/v1/render-templates', guarded: true });
