import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * The text of the console's static files, read once at start. An edge runtime has no file system: the
 * edge bundle replaces this module by its exports as literals (scripts/edge-bundle.ts, `filesInlinedAtBundleTime`).
 */
export const CONSOLE_CSS = readFileSync(fileURLToPath(new URL('./assets/console.css', import.meta.url)), 'utf8');

/** The console's own script (copy buttons). */
export const CONSOLE_JS = readFileSync(fileURLToPath(new URL('./assets/console.js', import.meta.url)), 'utf8');

/** htmx, self-hosted from its npm package (no CDN): the minified browser build. */
export const HTMX_SOURCE = readFileSync(createRequire(import.meta.url).resolve('htmx.org/dist/htmx.min.js'), 'utf8');

const version = (text: string) => {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) | 0;
  return (hash >>> 0).toString(36);
};

/**
 * Where the console's static files are served (versioned by content: cached for good). The pages link them by
 * these paths alone: inlined at bundle time like the texts, an edge entry without the assets carries the paths only.
 */
export const ASSET_PATHS = {
  css: `/console/assets/console-${version(CONSOLE_CSS)}.css`,
  htmx: `/console/assets/htmx-${version(HTMX_SOURCE)}.js`,
  js: `/console/assets/console-${version(CONSOLE_JS)}.js`,
} as const;
