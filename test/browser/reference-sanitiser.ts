import { createRequire } from 'node:module';
import createDOMPurify from 'dompurify';
import type { JSDOM as JSDOMType } from 'jsdom';

/**
 * jsdom brings its own undici, which on load installs itself as the process-wide fetch dispatcher
 * (Node's built-in fetch then sends through it and refuses requests it used to send, such as the OIDC
 * token exchange). So: let Node's fetch create its own dispatcher first, load jsdom, and put Node's back.
 */
const LEGACY_DISPATCHER = Symbol.for('undici.globalDispatcher.1');
void fetch('data:,').catch(() => {});
const nodeDispatcher = (globalThis as Record<symbol, unknown>)[LEGACY_DISPATCHER];
const { JSDOM } = createRequire(import.meta.url)('jsdom') as { JSDOM: typeof JSDOMType };
if (nodeDispatcher) (globalThis as Record<symbol, unknown>)[LEGACY_DISPATCHER] = nodeDispatcher;

/**
 * The render-template sanitiser the product used before its parser-based one (core/render-templates/sanitize.ts),
 * kept here as the reference the XSS corpus measures the new one against (sanitiser-corpus.test.ts):
 * DOMPurify on a jsdom window (on linkedom it silently does nothing).
 * Kept: standard HTML, inline SVG shapes and text, <style>, <link rel="stylesheet"> to http(s)
 * stylesheets, images from http, https and data URLs, aria-* and data-* attributes, and {{placeholders}}
 * as text. Removed: scripts, event handlers, javascript: URLs, frames, SVG <use>/<foreignObject>, forms.
 */
const purify = createDOMPurify(new JSDOM('').window as unknown as Window & typeof globalThis);

const HTTP_URL = /^https?:\/\//i;
purify.addHook('uponSanitizeElement', (node, data) => {
  if (data.tagName !== 'link') return;
  const element = node as Element;
  const rel = (element.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
  if (!rel.includes('stylesheet') || !HTTP_URL.test(element.getAttribute('href') ?? '')) {
    element.remove();
    purify.removed.push({ element });
  }
});

const CONFIG = {
  FORCE_BODY: true,
  ADD_TAGS: ['link', 'style'],
  ADD_ATTR: ['rel', 'href', 'media', 'target'],
  FORBID_TAGS: ['script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'base', 'form', 'input', 'button', 'textarea', 'select', 'use', 'foreignobject', 'noscript', 'meta', 'animate', 'set'],
  ALLOW_DATA_ATTR: true,
  ALLOW_ARIA_ATTR: true,
};

export const referenceSanitise = (html: string): { html: string; removed: string[] } => {
  const clean = purify.sanitize(html, CONFIG) as unknown as string;
  const removed = purify.removed
    .map((r) => ('element' in r ? `<${(r.element as Element).nodeName.toLowerCase()}>` : `@${(r as { attribute: Attr | null }).attribute?.name ?? '?'}`))
    // FORCE_BODY works by inserting and dropping a <remove> marker of DOMPurify's own.
    .filter((name) => name !== '<remove>');
  return { html: clean, removed };
};
