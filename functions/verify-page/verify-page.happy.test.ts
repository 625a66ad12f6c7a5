import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';
import { PAGE_ASSETS } from './page-assets.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('GET /verify', () => {
  it('serves the page without a session or token, as HTML that loads only its own script and style', async () => {
    const res = await t.call('GET', '/verify?uri=https%3A%2F%2Fexample.com%2Fc.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html; charset=utf-8/i);
    expect(res.text).toContain('<script type="module" src="/verify/app.js"></script>');
    expect(res.text).toContain('<link rel="stylesheet" href="/verify/style.css">');
    expect(res.text).toMatch(/<html lang="en">/);
    expect(res.text).toMatch(/<meta name="viewport" content="width=device-width, initial-scale=1">/);
    // Every form control has its label.
    for (const id of ['lookup-uri', 'key-input']) expect(res.text).toContain(`<label for="${id}">`);
    expect(res.text).toMatch(/<input id="key-input"[^>]*type="password"/);
    expect(res.text).toMatch(/role="status" aria-live="polite"/);
  });

  it('serves every asset the page loads, with its content type and an ETag that revalidates', async () => {
    const expected: Record<string, RegExp> = {
      'app.js': /^text\/javascript; charset=utf-8$/,
      'params.js': /^text\/javascript; charset=utf-8$/,
      'render.js': /^text\/javascript; charset=utf-8$/,
      'summary.js': /^text\/javascript; charset=utf-8$/,
      'digest.js': /^text\/javascript; charset=utf-8$/,
      'template-engine.js': /^text\/javascript; charset=utf-8$/,
      'messages.js': /^text\/javascript; charset=utf-8$/,
      'purify.es.mjs': /^text\/javascript; charset=utf-8$/,
      'style.css': /^text\/css; charset=utf-8$/,
    };
    expect([...PAGE_ASSETS.keys()].sort()).toEqual(Object.keys(expected).sort());
    for (const [name, type] of Object.entries(expected)) {
      const res = await t.call('GET', `/verify/${name}`);
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type'), name).toMatch(type);
      expect(res.headers.get('cache-control'), name).toBe('no-cache');
      const tag = res.headers.get('etag');
      expect(tag, name).toBeTruthy();
      const again = await t.call('GET', `/verify/${name}`, { headers: { 'if-none-match': tag! } });
      expect(again.status, name).toBe(304);
    }
  });

  it('serves DOMPurify’s own ES build (the sanitiser the page imports), without a source-map reference', async () => {
    const res = await t.call('GET', '/verify/purify.es.mjs');
    expect(res.text).toMatch(/DOMPurify/);
    expect(res.text).toMatch(/export \{[^}]*as default/);
    expect(res.text).not.toMatch(/sourceMappingURL/);
  });
});
