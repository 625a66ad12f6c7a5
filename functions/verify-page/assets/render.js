// Renders a verified credential through its render method: a Handlebars-style template (interpreted by
// template-engine.js, values escaped), sanitised again here whoever made it, and shown in a sandboxed frame
// (no scripts, no same origin). The frame's own policy allows inline styles and data: images; the page's
// policy, which a srcdoc frame inherits, adds only the hosts the operator allows (VERIFY_TEMPLATE_ASSET_HOSTS).
import DOMPurify from './purify.es.mjs';
import { digestMatches } from './digest.js';
import { renderTemplate } from './template-engine.js';

const TEMPLATE_TYPES = ['RenderTemplate2024', 'WebRenderingTemplate2022'];

/** The frame's own policy, on top of the page's (which a srcdoc frame inherits and which names the allowed hosts). */
export const FRAME_CSP = "default-src 'none'; style-src 'unsafe-inline' http: https:; img-src data: http: https:; font-src data: http: https:; base-uri 'none'; form-action 'none'";

const SANITISE = {
  FORCE_BODY: true,
  ADD_TAGS: ['style'],
  FORBID_TAGS: ['script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'base', 'link', 'meta', 'form', 'input', 'button', 'textarea', 'select', 'use', 'foreignobject', 'noscript', 'animate', 'set', 'portal'],
  FORBID_ATTR: ['srcdoc', 'formaction', 'action', 'ping'],
  ALLOW_DATA_ATTR: true,
  ALLOW_ARIA_ATTR: true,
};

// A data: URL is kept for images only (DOMPurify also lets data: through on a few media elements).
const DATA_IMAGE = /^\s*data:image\//i;
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  for (const name of ['src', 'href', 'xlink:href', 'poster']) {
    const value = node.getAttribute?.(name);
    if (value && /^\s*data:/i.test(value) && !(node.tagName === 'IMG' && DATA_IMAGE.test(value))) node.removeAttribute(name);
  }
});

const typesOf = (method) => [method.type].flat().filter((t) => typeof t === 'string');
const isHtml = (method) => method.mediaType === undefined || method.mediaType === 'text/html';
const isHttpUrl = (value) => typeof value === 'string' && /^https?:\/\//i.test(value);

/**
 * The render methods this page can use, in the credential's order: RenderTemplate2024 (type as an array,
 * as UNTP 0.7.0 requires, or a string, as 0.6.x carries it) or WebRenderingTemplate2022, for HTML, with a
 * template inline or named by an http(s) URL. Those whose mediaQuery does not match this screen come last.
 */
export const usableMethods = (credential, matches = (query) => globalThis.matchMedia?.(query).matches ?? true) => {
  const methods = [credential?.renderMethod].flat().filter((m) =>
    m && typeof m === 'object' && typesOf(m).some((t) => TEMPLATE_TYPES.includes(t)) && isHtml(m) && (typeof m.template === 'string' || isHttpUrl(m.url)));
  const fits = (m) => typeof m.mediaQuery !== 'string' || m.mediaQuery.trim() === '' || matches(m.mediaQuery);
  return [...methods.filter(fits), ...methods.filter((m) => !fits(m))];
};

/** What a person sees in the choice of templates. */
export const methodLabel = (method, index) => (typeof method.name === 'string' && method.name.trim() ? method.name.trim() : `Template ${index + 1}`);

const MESSAGES = {
  digest: 'The credential’s template does not match the digest its render method names, so it is not used and the credential’s data is shown instead.',
  unavailable: 'The credential’s template is published elsewhere or could not be read; this page renders only templates carried in the credential or published by this service, so its data is shown instead.',
  broken: 'The credential’s template could not be rendered, so its data is shown instead.',
};

/** A linked template published by this service, through /verify/template (which checks it against its record). */
const fetchLinked = async (url, digestMultibase) => {
  const query = new URLSearchParams({ url, ...(typeof digestMultibase === 'string' ? { digestMultibase } : {}) });
  try {
    const response = await fetch(`/verify/template?${query}`, { credentials: 'omit', referrerPolicy: 'no-referrer' });
    return response.ok ? await response.text() : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The template of a render method: `{ template }`, or `{ problem }` (a sentence saying why none is used).
 * A digestMultibase, when the method has one, must match the template (inline or fetched).
 */
export const loadTemplate = async (method) => {
  const template = typeof method.template === 'string' ? method.template : await fetchLinked(method.url, method.digestMultibase);
  if (template === undefined) return { problem: MESSAGES.unavailable };
  if (typeof method.digestMultibase === 'string' && (await digestMatches(template, method.digestMultibase)) === false) return { problem: MESSAGES.digest };
  return { template };
};

/** The complete document of the credential frame, or `{ problem }` when the template cannot be rendered. */
export const frameDocument = (template, credential) => {
  let filled;
  try {
    filled = renderTemplate(template, credential);
  } catch {
    return { problem: MESSAGES.broken };
  }
  const body = DOMPurify.sanitize(filled, SANITISE);
  return {
    html: `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
      `<meta http-equiv="Content-Security-Policy" content="${FRAME_CSP}">` +
      `<meta name="referrer" content="no-referrer"><meta name="viewport" content="width=device-width, initial-scale=1">` +
      `<title>Credential</title><style>body{margin:0;padding:1rem;font-family:system-ui,sans-serif;color:#1b1f24;background:#fff}</style>` +
      `</head><body>${body}</body></html>`,
  };
};
