import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface PageAsset {
  body: string;
  contentType: string;
}

const own = (name: string) => readFileSync(fileURLToPath(new URL(`./assets/${name}`, import.meta.url)), 'utf8');
const JS = 'text/javascript; charset=utf-8';

/**
 * DOMPurify's ES module build (beside the CommonJS main the package exports), served as is but for its
 * source-map comment (the map is not served).
 */
const dompurifyFile = join(dirname(createRequire(import.meta.url).resolve('dompurify')), 'purify.es.mjs');
const dompurify = readFileSync(dompurifyFile, 'utf8').replace(/\n\/\/# sourceMappingURL=.*\s*$/, '\n');

/** Everything the page loads, read once at start: served under /verify/<name>. */
export const PAGE_ASSETS = new Map<string, PageAsset>(Object.entries({
  'app.js': { body: own('app.js'), contentType: JS },
  'params.js': { body: own('params.js'), contentType: JS },
  'render.js': { body: own('render.js'), contentType: JS },
  'summary.js': { body: own('summary.js'), contentType: JS },
  'digest.js': { body: own('digest.js'), contentType: JS },
  'template-engine.js': { body: readFileSync(fileURLToPath(new URL('../../core/render-templates/template-engine.js', import.meta.url)), 'utf8'), contentType: JS },
  'messages.js': { body: own('messages.js'), contentType: JS },
  'purify.es.mjs': { body: dompurify, contentType: JS },
  'style.css': { body: own('style.css'), contentType: 'text/css; charset=utf-8' },
}));
