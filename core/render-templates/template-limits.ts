import { TEXT_LIMITS } from '../text-limits.ts';

/**
 * Bounds on render-template HTML, because sanitising cost grows with the square of nesting: at most
 * TEMPLATE_MAX_CHARS characters and TEMPLATE_MAX_DEPTH open elements at any point (an unclosed tag
 * counts as open until its end tag, void elements and `/>` never do); sanitising itself runs off the
 * request thread within SANITIZE_BUDGET_MS (core/render-templates/sanitize-pool.ts).
 */
export const TEMPLATE_MAX_CHARS = TEXT_LIMITS.template;
export const TEMPLATE_MAX_DEPTH = 100;
export const SANITIZE_BUDGET_MS = 10_000;

const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const TAG_NAME = /^(\/?)([a-zA-Z][a-zA-Z0-9-]*)/;

/** The deepest element nesting of the HTML, counted in one pass over its tags. */
export const nestingDepth = (html: string): number => {
  let depth = 0;
  let deepest = 0;
  let at = html.indexOf('<');
  while (at !== -1) {
    const end = html.indexOf('>', at + 1);
    if (end === -1) break;
    const tag = html.slice(at + 1, end);
    const match = TAG_NAME.exec(tag);
    if (match) {
      const name = match[2]!.toLowerCase();
      if (match[1]) depth = Math.max(0, depth - 1);
      else if (!VOID_ELEMENTS.has(name) && !tag.endsWith('/')) deepest = Math.max(deepest, ++depth);
    }
    at = html.indexOf('<', end + 1);
  }
  return deepest;
};

export const NESTING_MESSAGE = `must not nest elements more than ${TEMPLATE_MAX_DEPTH} deep (count unclosed tags as open)`;
