// A Handlebars-style template interpreter with no dependencies and no code generation (neither the eval
// function nor the Function constructor: a strict CSP and workerd refuse both, and a template must never become code).
// The same file runs server-side (core, the console's previews) and in the /verify page, which serves it
// as an asset. Supported: {{path}}, {{{path}}}, {{!comment}}, {{~ ~}}, {{#each}} (arrays and objects;
// this, @index, @key, @first, @last, ../, @root, {{else}}), {{#if}}/{{else}}/{{else if}}, {{#unless}},
// {{#with}}, {{lookup obj key}}, nested paths and array indices (a.b.0, a.[0], a/b). Anything else that
// takes arguments (an unknown helper) renders nothing.
//
// Output is HTML-escaped, and so is {{{triple}}}: a credential's values are data, never markup (an
// issuer's template still shapes the page; its values cannot add elements, attributes or styles).
// Values are read from own properties only, so no path reaches a prototype.

/** Bounds, so that no template and no data can hang a page or the server. */
export const TEMPLATE_BOUNDS = Object.freeze({
  /** characters of template */
  templateChars: 262_144,
  /** blocks open inside one another */
  nesting: 32,
  /** nodes evaluated in one render, counting every iteration */
  steps: 200_000,
  /** characters of output */
  outputChars: 4_000_000,
});

export class TemplateError extends Error {
  constructor(message) {
    super(message);
    this.name = 'TemplateError';
  }
}

const BLOCK_HELPERS = new Set(['each', 'if', 'unless', 'with']);

// ---- lexing --------------------------------------------------------------------------------------------

/** Splits the template into text and tag tokens, applying `~` whitespace control. */
const tokenize = (template) => {
  const tokens = [];
  let at = 0;
  while (at < template.length) {
    const open = template.indexOf('{{', at);
    if (open === -1) {
      tokens.push({ kind: 'text', value: template.slice(at) });
      break;
    }
    if (open > at) tokens.push({ kind: 'text', value: template.slice(at, open) });
    if (template[open - 1] === '\\') {
      // \{{ is a literal {{ in Handlebars
      tokens[tokens.length - 1].value = tokens[tokens.length - 1].value.slice(0, -1) + '{{';
      at = open + 2;
      continue;
    }
    let end;
    let raw = false;
    let body;
    if (template.startsWith('{{!--', open) || template.startsWith('{{~!--', open)) {
      end = template.indexOf('--', template.indexOf('!--', open) + 3);
      end = end === -1 ? -1 : template.indexOf('}}', end);
      if (end === -1) throw new TemplateError('a {{!-- comment --}} is not closed');
      const tildeOpen = template[open + 2] === '~';
      const tildeClose = template[end - 1] === '~';
      tokens.push({ kind: 'comment', trimBefore: tildeOpen, trimAfter: tildeClose });
      at = end + 2;
      continue;
    }
    if (template.startsWith('{{{', open) || template.startsWith('{{~{', open)) {
      end = template.indexOf('}}}', open);
      raw = true;
      body = template.slice(open + 2, end + 1);
      at = end + 3;
    } else {
      end = template.indexOf('}}', open + 2);
      body = template.slice(open + 2, end);
      at = end + 2;
    }
    if (end === -1) {
      // A {{ never closed is text, as it reads (a stray brace in a template is not worth losing the card for).
      tokens.push({ kind: 'text', value: template.slice(open) });
      break;
    }
    let trimBefore = false;
    let trimAfter = false;
    if (body.startsWith('~')) { trimBefore = true; body = body.slice(1); }
    if (body.endsWith('~')) { trimAfter = true; body = body.slice(0, -1); }
    if (raw) body = body.slice(1, -1);
    tokens.push({ kind: 'tag', raw, body: body.trim(), trimBefore, trimAfter });
  }
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i];
    if (token.kind === 'text') continue;
    if (token.trimBefore && tokens[i - 1]?.kind === 'text') tokens[i - 1].value = tokens[i - 1].value.replace(/\s+$/, '');
    if (token.trimAfter && tokens[i + 1]?.kind === 'text') tokens[i + 1].value = tokens[i + 1].value.replace(/^\s+/, '');
  }
  return tokens;
};

/** The words of a tag: paths, "strings", 'strings', numbers, true/false/null; hash arguments are ignored. */
const words = (text) => {
  const out = [];
  const pattern = /\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^\s"']+)/g;
  let match;
  while ((match = pattern.exec(text)) !== null) {
    const word = match[1];
    if (word.startsWith('"') || word.startsWith("'")) out.push({ literal: word.slice(1, -1).replace(/\\(.)/g, '$1') });
    else if (/^-?\d+(\.\d+)?$/.test(word)) out.push({ literal: Number(word) });
    else if (word === 'true' || word === 'false') out.push({ literal: word === 'true' });
    else if (word === 'null' || word === 'undefined') out.push({ literal: undefined });
    else if (word.includes('=')) continue;
    else out.push({ path: parsePath(word) });
  }
  return out;
};

/** `../../a.b.[0]` → `{ up: 2, data: false, parts: ['a', 'b', '0'] }`. */
const parsePath = (text) => {
  let rest = text;
  let up = 0;
  let data = false;
  if (rest.startsWith('@')) { data = true; rest = rest.slice(1); }
  while (rest.startsWith('../')) { up += 1; rest = rest.slice(3); }
  if (rest === '..') { up += 1; rest = ''; }
  const parts = [];
  const pattern = /\[([^\]]*)\]|([^./[\]]+)/g;
  let match;
  while ((match = pattern.exec(rest)) !== null) parts.push(match[1] ?? match[2]);
  if (!data && (parts[0] === 'this' || rest === '.' || rest.startsWith('./'))) {
    if (parts[0] === 'this') parts.shift();
  }
  return { up, data, parts };
};

// ---- parsing -------------------------------------------------------------------------------------------

const parse = (tokens) => {
  const root = { children: [] };
  // Each open block: its node, and the list new nodes go to (its program or, after {{else}}, its inverse).
  const stack = [{ node: root, target: root.children }];
  const current = () => stack[stack.length - 1];
  for (const token of tokens) {
    if (token.kind === 'text') { if (token.value) current().target.push({ kind: 'text', value: token.value }); continue; }
    if (token.kind === 'comment') continue;
    const { body, raw } = token;
    if (body.startsWith('!')) continue;
    if (!raw && body.startsWith('#')) {
      if (stack.length > TEMPLATE_BOUNDS.nesting) throw new TemplateError(`blocks must not nest more than ${TEMPLATE_BOUNDS.nesting} deep`);
      const [name, ...args] = words(body.slice(1).replace(/^[*>]/, ''));
      const block = { kind: 'block', name: name?.path?.parts.join('.') ?? '', head: name, args, program: [], inverse: [], chained: 0 };
      current().target.push(block);
      stack.push({ node: block, target: block.program });
      continue;
    }
    if (!raw && (body === 'else' || body === '^' || body.startsWith('else '))) {
      const open = current();
      if (open.node === root) throw new TemplateError('{{else}} outside a block');
      if (body.startsWith('else ')) {
        // {{else if x}}: a block nested in the inverse, closed by the outer block's end tag.
        const [name, ...args] = words(body.slice(5));
        const chained = { kind: 'block', name: name?.path?.parts.join('.') ?? '', head: name, args, program: [], inverse: [], chained: 0 };
        open.target = open.node.inverse;
        open.target.push(chained);
        open.node.chained += 1;
        stack.push({ node: chained, target: chained.program, chainedInto: open.node });
      } else {
        open.target = open.node.inverse;
      }
      continue;
    }
    if (!raw && body.startsWith('/')) {
      const name = body.slice(1).trim();
      // close any {{else if}} blocks chained into the block being closed
      while (current().chainedInto) stack.pop();
      const open = stack.pop();
      if (!open || open.node === root || open.node.name !== name) throw new TemplateError(`{{/${name}}} does not close the open block`);
      continue;
    }
    if (!raw && (body.startsWith('>') || body.startsWith('^'))) {
      // partials and inverted sections are not supported: they render nothing
      if (body.startsWith('^')) {
        const [name, ...args] = words(body.slice(1));
        const block = { kind: 'block', name: name?.path?.parts.join('.') ?? '', inverted: true, head: undefined, args: [name, ...args], program: [], inverse: [], chained: 0 };
        current().target.push(block);
        stack.push({ node: block, target: block.program });
      }
      continue;
    }
    current().target.push({ kind: 'value', args: words(body) });
  }
  if (stack.length > 1) throw new TemplateError(`{{#${current().node.name}}} is not closed`);
  return root.children;
};

// ---- evaluation ----------------------------------------------------------------------------------------

const own = (value, key) => value !== null && (typeof value === 'object' || typeof value === 'string') && Object.hasOwn(Object(value), key);

const lookupPath = (scope, path) => {
  if (path.data) {
    const [first, ...rest] = path.parts;
    let value = first === 'root' ? scope.root : own(scope.data, first) ? scope.data[first] : undefined;
    for (const part of rest) value = own(value, part) ? value[part] : undefined;
    return value;
  }
  let frame = scope;
  for (let i = 0; i < path.up && frame.parent; i += 1) frame = frame.parent;
  let value = frame.context;
  for (const part of path.parts) {
    if (!own(value, part)) return undefined;
    value = value[part];
  }
  return value;
};

const argValue = (scope, arg) => (arg === undefined ? undefined : 'literal' in arg ? arg.literal : lookupPath(scope, arg.path));

const isEmpty = (value) => value === undefined || value === null || value === false || value === '' || value === 0 || (Array.isArray(value) && value.length === 0);

const textOf = (value) => {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) return value.map((v) => textOf(v)).join(', ');
  return JSON.stringify(value);
};

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;', '`': '&#x60;', '=': '&#x3D;' };
/** HTML-escapes text for element content and quoted attribute values. */
export const escapeHtml = (text) => String(text).replace(/[&<>"'`=]/g, (ch) => ESCAPES[ch]);

const child = (scope, context, data) => ({ context, parent: scope, root: scope.root, data: { ...scope.data, ...data }, budget: scope.budget });

const evaluate = (nodes, scope, out) => {
  for (const node of nodes) {
    if ((scope.budget.steps += 1) > TEMPLATE_BOUNDS.steps) throw new TemplateError('the template takes too many steps to render');
    if (node.kind === 'block') { evaluateBlock(node, scope, out); continue; }
    const piece = node.kind === 'text' ? node.value : escapeHtml(textOf(valueOf(node.args, scope)));
    if ((scope.budget.chars += piece.length) > TEMPLATE_BOUNDS.outputChars) throw new TemplateError('the rendered output is too long');
    out.push(piece);
  }
};

/** A `{{…}}` value: a path, or `lookup`; anything else with arguments is an unknown helper (nothing). */
const valueOf = (args, scope) => {
  const [head, ...rest] = args;
  if (head === undefined) return undefined;
  if (rest.length === 0) return argValue(scope, head);
  if (head.path && !head.path.data && head.path.up === 0 && head.path.parts.length === 1 && head.path.parts[0] === 'lookup') {
    const target = argValue(scope, rest[0]);
    const key = argValue(scope, rest[1]);
    return (typeof key === 'string' || typeof key === 'number') && own(target, String(key)) ? target[String(key)] : undefined;
  }
  return undefined;
};

const evaluateBlock = (block, scope, out) => {
  const known = BLOCK_HELPERS.has(block.name) && block.head?.path && !block.head.path.data && block.head.path.up === 0 && block.head.path.parts.length === 1;
  if (block.inverted) {
    const value = argValue(scope, block.args[0]);
    if (isEmpty(value)) evaluate(block.program, scope, out);
    return;
  }
  if (!known) {
    // {{#name}} with no arguments is a section over that value; an unknown helper with arguments renders nothing.
    if (block.args.length > 0 || !block.head) return;
    const value = argValue(scope, block.head);
    if (Array.isArray(value)) return eachOf(value, block, scope, out);
    if (isEmpty(value)) return evaluate(block.inverse, scope, out);
    return evaluate(block.program, value !== null && typeof value === 'object' ? child(scope, value, {}) : scope, out);
  }
  const value = argValue(scope, block.args[0]);
  if (block.name === 'if') return evaluate(isEmpty(value) ? block.inverse : block.program, scope, out);
  if (block.name === 'unless') return evaluate(isEmpty(value) ? block.program : block.inverse, scope, out);
  if (block.name === 'with') return isEmpty(value) ? evaluate(block.inverse, scope, out) : evaluate(block.program, child(scope, value, {}), out);
  return eachOf(value, block, scope, out);
};

const eachOf = (value, block, scope, out) => {
  const entries = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : value !== null && typeof value === 'object' ? Object.keys(value).map((key) => [key, value[key]]) : [];
  if (entries.length === 0) return evaluate(block.inverse, scope, out);
  entries.forEach(([key, item], i) => {
    if ((scope.budget.steps += 1) > TEMPLATE_BOUNDS.steps) throw new TemplateError('the template takes too many steps to render');
    const data = { index: i, key, first: i === 0, last: i === entries.length - 1 };
    evaluate(block.program, child(scope, item, data), out);
  });
};

/**
 * Renders a template against data. Throws TemplateError when the template is malformed (an unclosed
 * block or tag) or exceeds TEMPLATE_BOUNDS; never runs anything the template or the data contain.
 */
export const renderTemplate = (template, data) => {
  if (typeof template !== 'string') throw new TemplateError('the template must be text');
  if (template.length > TEMPLATE_BOUNDS.templateChars) throw new TemplateError(`the template must be at most ${TEMPLATE_BOUNDS.templateChars} characters`);
  const program = parse(tokenize(template));
  const out = [];
  evaluate(program, { context: data, parent: undefined, root: data, data: {}, budget: { steps: 0, chars: 0 } }, out);
  return out.join('');
};
