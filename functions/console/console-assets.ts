import { CONSOLE_CSS, CONSOLE_JS, HTMX_SOURCE } from './asset-sources.ts';

/** Where the console's two static files are served (versioned by content: cached for good). */
const version = (text: string) => {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) | 0;
  return (hash >>> 0).toString(36);
};

export const ASSET_PATHS = {
  css: `/console/assets/console-${version(CONSOLE_CSS)}.css`,
  htmx: `/console/assets/htmx-${version(HTMX_SOURCE)}.js`,
  js: `/console/assets/console-${version(CONSOLE_JS)}.js`,
} as const;

export const CONSOLE_ASSETS = new Map<string, { body: string; contentType: string }>([
  [ASSET_PATHS.css, { body: CONSOLE_CSS, contentType: 'text/css; charset=utf-8' }],
  [ASSET_PATHS.js, { body: CONSOLE_JS, contentType: 'text/javascript; charset=utf-8' }],
  [ASSET_PATHS.htmx, { body: HTMX_SOURCE.replace(/\n\/\/# sourceMappingURL=.*\s*$/, '\n'), contentType: 'text/javascript; charset=utf-8' }],
]);
