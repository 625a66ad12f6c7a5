// Renders a credential with the template of its render method (carried inline, or published by this
// service): placeholders are filled with HTML-escaped values, the result is sanitised again here (whoever
// made the template), and it is shown in a sandboxed frame (no scripts, no same origin) whose own policy
// allows styles and images only.
import DOMPurify from './purify.es.mjs';

const TEMPLATE_TYPES = ['RenderTemplate2024', 'WebRenderingTemplate2022'];

/** The frame's own policy, on top of the page's (which a srcdoc frame inherits). */
export const FRAME_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data: https:; base-uri 'none'; form-action 'none'";

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

const isHtml = (method) => method.mediaType === undefined || method.mediaType === 'text/html';

/**
 * What to render a credential with: `{ template }` for the first HTML render method carrying its template
 * inline, else `{ linked: { url, digestMultibase? } }` for the first one naming its template by URL (the
 * page asks this service for it: only templates published here are served), else `{}`.
 */
export const pickTemplate = (credential) => {
  const methods = [credential?.renderMethod].flat().filter((m) => m && typeof m === 'object' && TEMPLATE_TYPES.includes(m.type) && isHtml(m));
  const inline = methods.find((m) => typeof m.template === 'string');
  if (inline) return { template: inline.template };
  const linked = methods.find((m) => typeof m.url === 'string' && /^https?:\/\//i.test(m.url));
  if (linked) return { linked: { url: linked.url, ...(typeof linked.digestMultibase === 'string' ? { digestMultibase: linked.digestMultibase } : {}) } };
  return {};
};

/** The HTML of a linked template published by this service, or undefined when it cannot be had. */
export const fetchLinkedTemplate = async ({ url, digestMultibase }) => {
  const query = new URLSearchParams({ url, ...(digestMultibase ? { digestMultibase } : {}) });
  try {
    const response = await fetch(`/verify/template?${query}`, { credentials: 'omit', referrerPolicy: 'no-referrer' });
    return response.ok ? await response.text() : undefined;
  } catch {
    return undefined;
  }
};

/** The value at `a.b[0].c` in the data, or undefined. */
export const valueAt = (data, path) => {
  const steps = path.replace(/\[(\d+)\]/g, '.$1').split('.').filter(Boolean);
  let value = data;
  for (const step of steps) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, step)) return undefined;
    value = value[step];
  }
  return value;
};

const textOf = (value) => {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null)) return value.join(', ');
  return JSON.stringify(value);
};

export const escapeHtml = (text) =>
  text.replace(/[&<>"'`]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' })[ch]);

/** Replaces each `{{path}}` with the escaped text of the credential's value there. */
export const fillTemplate = (template, credential) =>
  template.replace(/\{\{\s*([^{}]+?)\s*\}\}/g, (_, path) => escapeHtml(textOf(valueAt(credential, path))));

/** The complete document of the credential frame. */
export const frameDocument = (template, credential) => {
  const body = DOMPurify.sanitize(fillTemplate(template, credential), SANITISE);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="${FRAME_CSP}">` +
    `<meta name="referrer" content="no-referrer"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>Credential</title><style>body{margin:1rem;font-family:system-ui,sans-serif;color:#1b1f24;background:#fff}</style>` +
    `</head><body>${body}</body></html>`;
};
