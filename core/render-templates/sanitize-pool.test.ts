import { afterAll, describe, expect, it } from 'vitest';
import { closeSanitiserPool, sanitizeOffThread } from './sanitize-pool.ts';
import { nestingDepth } from './template-limits.ts';

afterAll(() => closeSanitiserPool());

describe('sanitising in the worker pool', () => {
  it('sanitises off the request thread with the same rules', async () => {
    const result = await sanitizeOffThread('<h1>{{name}}</h1><script>alert(1)</script><img src=x onerror=alert(1)>');
    expect(result.html).toContain('{{name}}');
    expect(result.html).not.toMatch(/<script|onerror/);
    expect(result.removed).toEqual(expect.arrayContaining(['<script>', '@onerror']));
  });

  it('a task over its time budget is a 422 TEMPLATE_TOO_COMPLEX', async () => {
    const slow = '<div><b>x</div>'.repeat(20_000);
    await expect(sanitizeOffThread(slow, 1)).rejects.toMatchObject({ status: 422, code: 'TEMPLATE_TOO_COMPLEX' });
    // the pool keeps working after a terminated task
    expect((await sanitizeOffThread('<p>ok</p>')).html).toBe('<p>ok</p>');
  });
});

describe('nestingDepth', () => {
  it.each([
    ['<p>a</p><p>b</p>', 1],
    ['<div><span><b>x</b></span></div>', 3],
    ['<br><img src=x><hr/><link rel=x>', 0],
    ['<svg><path d="M0" /></svg>', 1],
    ['<b>'.repeat(500), 500],
    ['<div><!-- <x> --></div>', 1],
    ['a < b and c > d', 0],
    ['<a', 0],
  ])('%s → %i', (html, depth) => expect(nestingDepth(html)).toBe(depth));
});
