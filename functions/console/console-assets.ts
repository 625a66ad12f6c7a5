import { ASSET_PATHS, CONSOLE_CSS, CONSOLE_JS, HTMX_SOURCE } from './asset-sources.ts';


/** The console's static files by the path each is served at. */
export const CONSOLE_ASSETS = new Map<string, { body: string; contentType: string }>([
  [ASSET_PATHS.css, { body: CONSOLE_CSS, contentType: 'text/css; charset=utf-8' }],
  [ASSET_PATHS.js, { body: CONSOLE_JS, contentType: 'text/javascript; charset=utf-8' }],
  [ASSET_PATHS.htmx, { body: HTMX_SOURCE.replace(/\n\/\/# sourceMappingURL=.*\s*$/, '\n'), contentType: 'text/javascript; charset=utf-8' }],
]);
