import { stepBudget, type StepBudget } from '../../core/limits/bounded-steps.ts';

/**
 * JSON.parse for large request bodies in bounded steps (issue 29 §1). A value of up to LEAF_CHARS is
 * parsed at once by JSON.parse; a larger array or object is split into its members by a scan (strings,
 * escapes and nesting tracked), each member parsed the same way, and the event loop is given back
 * every STEP_CHARS of text scanned or parsed. The result is JSON.parse's (keys such as `__proto__`
 * stay own data properties); text that is not JSON throws a SyntaxError as JSON.parse does.
 *
 * `arrayLimit` bounds one array of the root object (a batch's `items`): once it holds more than `max`
 * elements the rest are only counted by the scan, never parsed, and `refuse(count)` is thrown.
 */
const LEAF_CHARS = 64 * 1024;
const STEP_CHARS = 128 * 1024;

export interface ArrayLimit {
  /** A member of the root object. */
  key: string;
  max: number;
  refuse: (count: number) => Error;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const isOpen = (code: number) => code === 0x5b || code === 0x7b; // [ {
/** Whether the quote at `at` is escaped: an odd number of backslashes right before it. */
const escaped = (text: string, at: number) => {
  let backslashes = 0;
  while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes += 1;
  return backslashes % 2 === 1;
};
const isSpace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;

const invalid = (at: number) => new SyntaxError(`Unexpected token in JSON at position ${at}`);

/** [start, end) without JSON whitespace at either end. */
const trimmed = (text: string, start: number, end: number): [number, number] => {
  while (start < end && isSpace(text.charCodeAt(start))) start += 1;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end -= 1;
  return [start, end];
};

/**
 * The direct members of the container text[start, end) (its brackets included): for an array the
 * ranges of its elements, for an object the ranges of each key and its value. Nested brackets are
 * only counted here; each member's own parse checks them.
 */
const membersOf = async (text: string, start: number, end: number, budget: StepBudget): Promise<[number, number][]> => {
  const isObject = text.charCodeAt(start) === 0x7b;
  const close = isObject ? 0x7d : 0x5d;
  if (text.charCodeAt(end - 1) !== close) throw invalid(end - 1);
  const ranges: [number, number][] = [];
  let depth = 0;
  let memberStart = start + 1;
  let stepStart = start;
  for (let i = start + 1; i < end - 1; i += 1) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      // The closing quote: the next one not escaped (preceded by an even number of backslashes); found natively.
      let close = text.indexOf('"', i + 1);
      while (close !== -1 && close < end - 1 && escaped(text, close)) close = text.indexOf('"', close + 1);
      if (close === -1 || close >= end - 1) throw invalid(i);
      i = close;
    } else if (isOpen(code)) depth += 1;
    else if (code === 0x5d || code === 0x7d) {
      depth -= 1;
      if (depth < 0) throw invalid(i);
    } else if (depth === 0 && (code === COMMA || (isObject && code === COLON))) {
      ranges.push([memberStart, i]);
      memberStart = i + 1;
    }
    if (i - stepStart >= STEP_CHARS) {
      await budget.spend(i - stepStart);
      stepStart = i;
    }
  }
  if (depth !== 0) throw invalid(end - 1);
  await budget.spend(end - stepStart);
  const last = trimmed(text, memberStart, end - 1);
  if (last[0] < last[1] || ranges.length > 0) ranges.push([memberStart, end - 1]);
  return ranges;
};

const parseRange = async (text: string, start: number, end: number, budget: StepBudget, limit?: ArrayLimit): Promise<unknown> => {
  [start, end] = trimmed(text, start, end);
  if (start >= end) throw invalid(start);
  const first = text.charCodeAt(start);
  if (end - start <= LEAF_CHARS || !isOpen(first)) {
    const value: unknown = JSON.parse(text.slice(start, end));
    await budget.spend(end - start);
    return value;
  }
  const members = await membersOf(text, start, end, budget);
  if (first === 0x5b) {
    const items: unknown[] = [];
    for (const [s, e] of members) items.push(await parseRange(text, s, e, budget));
    return items;
  }
  // An object: members alternate key, value; every separator must be the right one.
  const object: Record<string, unknown> = {};
  for (let m = 0; m < members.length; m += 2) {
    const [ks, ke] = trimmed(text, ...members[m]!);
    const valueRange = members[m + 1];
    if (text.charCodeAt(ks) !== QUOTE || !valueRange || text.charCodeAt(valueRange[0] - 1) !== COLON) throw invalid(ks);
    if (m > 0 && text.charCodeAt(members[m - 1]![1]) !== COMMA) throw invalid(members[m - 1]![1]);
    if (m + 2 < members.length && text.charCodeAt(valueRange[1]) !== COMMA) throw invalid(valueRange[1]);
    const key = JSON.parse(text.slice(ks, ke)) as unknown;
    if (typeof key !== 'string') throw invalid(ks);
    const bounded = limit?.key === key ? limit : undefined;
    const value = bounded ? await boundedArray(text, valueRange, budget, bounded) : await parseRange(text, valueRange[0], valueRange[1], budget);
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  }
  return object;
};

/** The bounded array of the root object: its members past `max` are counted by the scan, not parsed. */
const boundedArray = async (text: string, [start, end]: [number, number], budget: StepBudget, limit: ArrayLimit): Promise<unknown> => {
  [start, end] = trimmed(text, start, end);
  if (text.charCodeAt(start) !== 0x5b || end - start <= LEAF_CHARS) return parseRange(text, start, end, budget);
  const members = await membersOf(text, start, end, budget);
  if (members.length > limit.max) throw limit.refuse(members.length);
  const items: unknown[] = [];
  for (const [s, e] of members) items.push(await parseRange(text, s, e, budget));
  return items;
};

/** The value of the JSON `text`, parsed in bounded steps (see above). */
export const parseJsonInSteps = (text: string, options: { arrayLimit?: ArrayLimit } = {}): Promise<unknown> => {
  const [start, end] = trimmed(text, 0, text.length);
  if (end - start <= LEAF_CHARS) return Promise.resolve(JSON.parse(text));
  const budget = stepBudget(STEP_CHARS);
  return parseRange(text, start, end, budget, text.charCodeAt(start) === 0x7b ? options.arrayLimit : undefined);
};
