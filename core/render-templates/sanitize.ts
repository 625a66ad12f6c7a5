import sanitizeHtml from 'sanitize-html';

/**
 * Render-template HTML sanitising on a parser (sanitize-html on htmlparser2), no DOM, so it runs alike on
 * Node and at the edge. An allowlist: standard HTML, inline SVG shapes and text, <style>, <link
 * rel="stylesheet"> to http(s) stylesheets, images from http, https and data URLs, aria-* and data-*
 * attributes, and {{placeholders}} as text. Everything else goes: scripts, event handlers, javascript: and
 * other schemes, frames, SVG <use>/<foreignObject>, forms, comments. Tag and attribute names keep their case
 * (SVG's `clipPath`, `viewBox`); names in another case than listed are not allowed.
 *
 * One rule sanitize-html leaves to its caller: a <style> keeps its text as is (it is raw text in HTML), but
 * inside <svg> or <math> a browser parses that text as markup, so a <style> there is dropped with its text.
 * test/browser/sanitiser-corpus.test.ts runs the XSS corpus through this and through the DOMPurify-on-jsdom
 * sanitiser it replaced, in a real browser: this one must block everything that one blocked.
 */
const HTML_TAGS = [
  ...sanitizeHtml.defaults.allowedTags,
  'img', 'picture', 'source', 'figure', 'figcaption', 'del', 'ins', 'center', 'font', 'big', 'small', 'label', 'legend', 'fieldset', 'details', 'summary', 'style', 'link', 'br', 'hr',
];
const SVG_TAGS = [
  'svg', 'g', 'path', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'rect', 'text', 'tspan', 'textPath', 'title', 'desc',
  'defs', 'clipPath', 'mask', 'pattern', 'linearGradient', 'radialGradient', 'stop', 'symbol', 'marker', 'filter',
  'feGaussianBlur', 'feOffset', 'feBlend', 'feColorMatrix', 'feFlood', 'feComposite', 'feMerge', 'feMergeNode',
];
const FOREIGN_ROOTS = new Set(['svg', 'math']);

const GLOBAL_ATTRIBUTES = ['class', 'id', 'title', 'lang', 'dir', 'style', 'role', 'hidden', 'tabindex', 'width', 'height', 'align', 'valign', 'data-*', 'aria-*'];
const SVG_ATTRIBUTES = [
  'viewBox', 'xmlns', 'preserveAspectRatio', 'x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'd', 'points', 'dx', 'dy',
  'fill', 'fill-opacity', 'fill-rule', 'stroke', 'stroke-width', 'stroke-linecap', 'stroke-linejoin', 'stroke-dasharray', 'stroke-opacity',
  'opacity', 'transform', 'clip-path', 'clip-rule', 'mask', 'offset', 'stop-color', 'stop-opacity', 'gradientUnits', 'gradientTransform',
  'font-family', 'font-size', 'font-weight', 'text-anchor', 'dominant-baseline', 'letter-spacing', 'patternUnits', 'markerWidth',
  'markerHeight', 'refX', 'refY', 'orient', 'stdDeviation', 'in', 'in2', 'result', 'mode', 'values', 'operator', 'flood-color', 'flood-opacity',
];
const ALLOWED_ATTRIBUTES: Record<string, string[]> = {
  '*': [...GLOBAL_ATTRIBUTES, ...SVG_ATTRIBUTES],
  a: ['href', 'name', 'target', 'rel'],
  img: ['src', 'srcset', 'alt', 'loading', 'sizes'],
  source: ['srcset', 'media', 'type', 'sizes'],
  link: ['rel', 'href', 'media'],
  style: ['media'],
  td: ['colspan', 'rowspan', 'headers'],
  th: ['colspan', 'rowspan', 'headers', 'scope'],
  col: ['span'],
  colgroup: ['span'],
  ol: ['start', 'reversed', 'type'],
  li: ['value'],
  time: ['datetime'],
  data: ['value'],
  details: ['open'],
  font: ['color', 'face', 'size'],
};
const isAllowedAttribute = (tag: string, name: string) =>
  [...(ALLOWED_ATTRIBUTES[tag] ?? []), ...ALLOWED_ATTRIBUTES['*']!].some((allowed) => (allowed.endsWith('*') ? name.startsWith(allowed.slice(0, -1)) : allowed === name));

const HTTP_URL = /^https?:\/\//i;
const URL_ATTRIBUTES = new Set(['href', 'src', 'srcset', 'cite', 'action', 'background']);
const SCHEMES = ['http', 'https', 'mailto', 'tel'];
const SCHEMES_BY_TAG: Record<string, string[]> = { img: ['http', 'https', 'data'], source: ['http', 'https', 'data'] };
/** The scheme of a URL as a browser reads it (control characters and spaces ignored), if it has one. */
const schemeOf = (value: string) => /^([a-z][a-z0-9+.-]*):/i.exec(value.replace(/[\u0000-\u0020\u007f-\u009f]/g, ''))?.[1]?.toLowerCase();
const refusedUrl = (tag: string, value: string) => {
  const scheme = schemeOf(value);
  return scheme !== undefined && !(SCHEMES_BY_TAG[tag] ?? SCHEMES).includes(scheme);
};
/** A <style> inside <svg> or <math> is renamed to this (not allowed, its text dropped). */
const FOREIGN_STYLE = 'style-in-foreign-content';

export interface Sanitised {
  html: string;
  /** Elements and attributes that were taken out (for the warning log). */
  removed: string[];
}

export const sanitizeTemplate = (html: string): Sanitised => {
  const removed: string[] = [];
  const allowedTags = new Set([...HTML_TAGS, ...SVG_TAGS]);
  let foreignDepth = 0;
  const clean = sanitizeHtml(html, {
    allowedTags: [...allowedTags],
    allowedAttributes: ALLOWED_ATTRIBUTES,
    allowedSchemes: SCHEMES,
    allowedSchemesByTag: SCHEMES_BY_TAG,
    allowedSchemesAppliedToAttributes: [...URL_ATTRIBUTES],
    // <style> is allowed knowingly: its text is raw text in HTML, and inside <svg>/<math> it is dropped (below).
    allowVulnerableTags: true,
    allowProtocolRelative: false,
    parseStyleAttributes: false,
    disallowedTagsMode: 'discard',
    nonTextTags: ['script', 'textarea', 'option', 'noscript', 'iframe', 'noembed', 'noframes', 'xmp', 'template', FOREIGN_STYLE],
    parser: { lowerCaseTags: false, lowerCaseAttributeNames: false },
    onOpenTag: (name, attribs) => {
      if (!allowedTags.has(name)) removed.push(`<${name.toLowerCase()}>`);
      else {
        for (const [attribute, value] of Object.entries(attribs)) {
          if (!isAllowedAttribute(name, attribute) || (URL_ATTRIBUTES.has(attribute) && refusedUrl(name, value))) removed.push(`@${attribute}`);
        }
      }
      if (FOREIGN_ROOTS.has(name.toLowerCase())) foreignDepth++;
    },
    onCloseTag: (name) => {
      if (FOREIGN_ROOTS.has(name.toLowerCase())) foreignDepth = Math.max(0, foreignDepth - 1);
    },
    transformTags: {
      style: (tagName, attribs) => {
        if (foreignDepth === 0) return { tagName, attribs };
        removed.push('<style>');
        return { tagName: FOREIGN_STYLE, attribs };
      },
    },
    // A <link> stays only as a stylesheet from http(s).
    exclusiveFilter: (frame) => {
      if (frame.tag !== 'link') return false;
      const keep = (frame.attribs.rel ?? '').toLowerCase().split(/\s+/).includes('stylesheet') && HTTP_URL.test(frame.attribs.href ?? '');
      if (!keep) removed.push('<link>');
      return !keep;
    },
  });
  return { html: clean, removed };
};
