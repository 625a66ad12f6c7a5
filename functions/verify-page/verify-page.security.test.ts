import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const KEY = 'ab'.repeat(32);
const directives = (csp: string) => new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));

describe('/verify headers', () => {
  const paths = [`/verify?uri=https%3A%2F%2Fexample.com%2Fc.json&decryptionKey=${KEY}`, '/verify/app.js', '/verify/style.css', '/verify/purify.es.mjs'];

  it('a strict Content-Security-Policy on the page and its assets: own scripts only, no framing, no form posts, API calls to itself only', async () => {
    for (const path of paths) {
      const res = await t.call('GET', path);
      const csp = directives(res.headers.get('content-security-policy') ?? '');
      expect(csp.get('default-src'), path).toEqual(["'none'"]);
      expect(csp.get('script-src'), path).toEqual(["'self'"]);
      expect(csp.get('connect-src'), path).toEqual(["'self'"]);
      expect(csp.get('object-src') ?? csp.get('default-src'), path).toEqual(["'none'"]);
      expect(csp.get('frame-src'), path).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors'), path).toEqual(["'none'"]);
      expect(csp.get('form-action'), path).toEqual(["'none'"]);
      expect(csp.get('base-uri'), path).toEqual(["'none'"]);
      expect(csp.get('style-src'), path).not.toContain('https:');
      // A template (in the frame, which inherits this policy) reaches no host: data: images and fonts only.
      expect(csp.get('img-src'), path).toEqual(['data:']);
      expect(csp.get('font-src'), path).toEqual(['data:']);
      for (const values of csp.values()) expect(values, path).not.toContain("'unsafe-eval'");
    }
  });

  it('no referrer (a key in the address never leaks), no sniffing, no framing, and no caching of the page', async () => {
    for (const path of paths) {
      const res = await t.call('GET', path);
      expect(res.headers.get('referrer-policy'), path).toBe('no-referrer');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('set-cookie'), path).toBeNull();
    }
    expect((await t.call('GET', paths[0]!)).headers.get('cache-control')).toBe('no-store');
  });

  it('the page holds no inline script, no inline style attribute and never echoes its query (a key stays out of the HTML)', async () => {
    const res = await t.call('GET', paths[0]!);
    expect(res.text).not.toContain(KEY);
    expect(res.text).not.toContain('example.com');
    const scripts = [...res.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    expect(scripts[0]![1]).toMatch(/src="\/verify\/app.js"/);
    expect(scripts[0]![2]).toBe('');
    expect(res.text).not.toMatch(/\son[a-z]+=/i);
    expect(res.text).not.toMatch(/\sstyle=/i);
  });

  it('is public: a bad bearer token changes nothing', async () => {
    const res = await t.call('GET', '/verify', { headers: { authorization: 'Bearer not-a-token' } });
    expect(res.status).toBe(200);
  });
});

describe('/verify assets: only the listed files', () => {
  it('unknown names, prototype names and paths that climb out answer 404 with no file content', async () => {
    for (const name of ['nope.js', 'constructor', '__proto__', 'hasOwnProperty', 'index.ts', 'page-assets.ts', '..%2Fapp.ts', '..%2F..%2Fpackage.json', 'assets%2Fapp.js']) {
      const res = await t.call('GET', `/verify/${name}`);
      expect(res.status, name).toBe(404);
      expect(res.text, name).not.toMatch(/import |"name":/);
    }
    expect((await t.call('GET', '/verify/../package.json')).text).not.toContain('"dependencies"');
  });
});

describe('/verify/template is not a proxy', () => {
  it('never fetches a URL that is not a published template', async () => {
    let hits = 0;
    const { createServer } = await import('node:http');
    const server = createServer((_req, res) => {
      hits += 1;
      res.end('<p>anything</p>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    try {
      const { port } = server.address() as { port: number };
      for (const url of [`http://127.0.0.1:${port}/template.html`, `http://localhost:${port}/`, 'http://169.254.169.254/latest/meta-data/']) {
        const res = await t.call('GET', `/verify/template?url=${encodeURIComponent(url)}`);
        expect(res.status, url).toBe(404);
      }
      expect(hits).toBe(0);
    } finally {
      server.close();
    }
  });
});

describe('/verify with VERIFY_TEMPLATE_ASSET_HOSTS', () => {
  let allowed: TestApp;
  beforeAll(async () => {
    allowed = await startTestApp({ env: { VERIFY_TEMPLATE_ASSET_HOSTS: 'https://img.example.com,https://cdn.example.org' } });
  });
  afterAll(() => allowed.close());

  it('adds exactly the allowed hosts to images, styles and fonts, and nothing else changes', async () => {
    const csp = directives((await allowed.call('GET', '/verify')).headers.get('content-security-policy') ?? '');
    expect(csp.get('img-src')).toEqual(['data:', 'https://img.example.com', 'https://cdn.example.org']);
    expect(csp.get('font-src')).toEqual(['data:', 'https://img.example.com', 'https://cdn.example.org']);
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'", 'https://img.example.com', 'https://cdn.example.org']);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
  });
});
