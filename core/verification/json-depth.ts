/**
 * Deepest nesting a fetched or decoded document may have. JSON.parse takes far deeper input than
 * JSON.stringify (recursive) can write back, so a document past this would fail later, when the
 * answer or the VC service call is serialised; real credentials nest a few levels.
 */
export const MAX_DOCUMENT_DEPTH = 64;

/** Whether a parsed JSON value nests at most `max` levels (walked without recursion). */
export const withinDepth = (value: unknown, max = MAX_DOCUMENT_DEPTH): boolean => {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= max) return false;
    for (const child of Array.isArray(item) ? item : Object.values(item)) pending.push([child, depth + 1]);
  }
  return true;
};
