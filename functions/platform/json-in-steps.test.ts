import { describe, expect, it } from 'vitest';
import { parseJsonInSteps } from './json-in-steps.ts';

/** Bodies past the size parsed at once (64 KiB), so the stepped path is the one tested. */
const item = (i: number) => ({
  name: `item ${i} with "quotes", [brackets], {braces}, a \\ backslash, commas, colons: and ünïcödé ✓`,
  nested: { list: [1, -2.5e3, true, false, null, { deep: ['x', '[', ']', '{', '}'] }], empty: {}, none: [] },
  n: i,
});
const large = { items: Array.from({ length: 600 }, (_, i) => item(i)), other: 'after', note: { a: 1 } };
const outcome = async (text: string) => {
  try {
    return { value: await parseJsonInSteps(text) };
  } catch (error) {
    return { error: (error as Error).name };
  }
};
const native = (text: string) => {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { error: (error as Error).name };
  }
};

describe('parseJsonInSteps', () => {
  it('gives what JSON.parse gives for large bodies in any layout', async () => {
    for (const text of [JSON.stringify(large), JSON.stringify(large, null, 2), ` \n\t${JSON.stringify(large, null, '\t')}\r\n `, JSON.stringify(large.items)]) {
      expect(text.length).toBeGreaterThan(64 * 1024);
      expect(await parseJsonInSteps(text)).toEqual(JSON.parse(text));
    }
  });

  it('keeps __proto__ and duplicate keys as JSON.parse does', async () => {
    const text = `{"__proto__": {"polluted": true}, "items": ${JSON.stringify(large.items)}, "dup": 1, "dup": 2}`;
    const value = (await parseJsonInSteps(text)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(Object.keys(JSON.parse(text)));
    expect(value).toEqual(JSON.parse(text));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses with a SyntaxError every body JSON.parse refuses', async () => {
    const body = JSON.stringify(large);
    const broken = [
      body.replace('},{', '}{'), // a missing comma between items
      body.replace('},{', '},,{'), // an empty member
      `${body.slice(0, -2)},]}`, // a trailing comma
      `${body} x`, // text after the value
      `${body}}`, // one brace too many
      body.slice(0, -1), // unclosed
      body.replace('"other":', '"other"'), // a key without a colon
      body.replace('"other":', '"other"::'), // two colons
      body.replace('"other":', 'other:'), // a key that is not a string
      body.replace('"note":{"a":1}', '"note":{"a":1]'), // mismatched brackets inside a member
      body.replace('"name":"item 7 with', '"name":"item 7\n with'), // a raw control character in a string
      `[${JSON.stringify(large.items).slice(1, -1)}:1]`, // a colon in an array
      `{"items":${JSON.stringify(large.items)}, "x": "unterminated}`,
    ];
    for (const text of broken) {
      expect(native(text)).toEqual({ error: 'SyntaxError' });
      expect(await outcome(text)).toEqual({ error: 'SyntaxError' });
    }
  });

  it('counts the bounded array’s members past its maximum without parsing them', async () => {
    const refusal = new Error('too many');
    const seen: number[] = [];
    // Item 550 is not JSON: it is never parsed, only counted.
    const text = JSON.stringify(large).replace('"n":550', '"n":55-0');
    const limit = { key: 'items', max: 500, refuse: (count: number) => (seen.push(count), refusal) };
    await expect(parseJsonInSteps(text, { arrayLimit: limit })).rejects.toBe(refusal);
    expect(seen).toEqual([600]);
    expect(await parseJsonInSteps(JSON.stringify(large), { arrayLimit: { ...limit, max: 600 } })).toEqual(large);
  });
});
