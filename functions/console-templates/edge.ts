import { createConsoleShell } from '../console/console-shell.ts';
import { registerTemplatePages } from '../console/templates/template-pages.tsx';
import { edgeFunction } from '../platform/edge-function.ts';

/**
 * Console edge entry for the render-template pages (wrangler env `console-templates`): with sanitize-html they do
 * not fit the console entry's bundle (500 KB budget). Its route `/console/templates*` is more specific than the
 * console entry's `/console*`, so it wins; the sanitiser runs in the request (scripts/edge-bundle.ts), the assets
 * stay with the console entry.
 */
export default edgeFunction(createConsoleShell([registerTemplatePages]), { path: '/console', guarded: false });
