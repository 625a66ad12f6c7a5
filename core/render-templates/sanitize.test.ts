import { describe, expect, it } from 'vitest';
import { sanitizeTemplate } from './sanitize.ts';

const clean = (html: string) => sanitizeTemplate(html).html;

describe('render-template sanitiser (would fail if sanitising were a no-op)', () => {
  it.each([
    ['script', '<p>Hi</p><script>alert(1)</script>', /<script/i],
    ['event handler', '<img src="https://x.example/a.png" onerror="alert(1)">', /onerror/i],
    ['javascript: link', '<a href="javascript:alert(1)">x</a>', /javascript:/i],
    ['javascript: with entities', '<a href="jav&#x09;ascript:alert(1)">x</a>', /ascript:/i],
    ['iframe', '<iframe src="https://evil.example"></iframe>', /<iframe/i],
    ['svg use data:', '<svg><use href="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+"></use></svg>', /<use|data:image\/svg/i],
    ['svg foreignObject', '<svg><foreignObject><img src=x onerror=alert(1)></foreignObject></svg>', /foreignobject|onerror/i],
    ['noscript mutation', '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>', /onerror/i],
    ['math mutation', '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>', /onerror/i],
    ['svg onload', '<svg onload="alert(1)"><rect width="1" height="1"/></svg>', /onload/i],
    ['form action', '<form action="https://evil.example"><input name="x"></form>', /<form|<input/i],
    ['link to javascript', '<link rel="stylesheet" href="javascript:alert(1)">', /<link/i],
    ['link import', '<link rel="import" href="https://evil.example/x.html">', /<link/i],
    ['base hijack', '<base href="https://evil.example/">', /<base/i],
  ])('%s is removed', (_, html, forbidden) => {
    const result = sanitizeTemplate(html);
    expect(result.html).not.toMatch(forbidden);
    expect(result.removed.length).toBeGreaterThan(0);
  });

  it('keeps allowed content: svg shapes, style, stylesheet links, data: images, aria/data attributes, placeholders', () => {
    const html = [
      '<style>.card { color: #123; }</style>',
      '<link rel="stylesheet" href="https://cdn.example.com/style.css">',
      '<div class="card" aria-label="Passport" data-field="name"><h1>{{credentialSubject.name}}</h1>',
      '<img src="data:image/png;base64,iVBORw0KGgo=" alt="logo"><img src="https://img.example.com/p.png" alt="p">',
      '<svg viewBox="0 0 10 10"><defs><clipPath id="c"><rect width="10" height="10"></rect></clipPath></defs>',
      '<g><circle cx="5" cy="5" r="4"></circle><path d="M0 0L10 10"></path><text x="1" y="9">{{id}}</text></g></svg>',
      '<p>Issued by {{issuer.name}} on {{validFrom}}</p></div>',
    ].join('');
    const result = sanitizeTemplate(html);
    for (const kept of ['<style>', 'rel="stylesheet"', 'aria-label="Passport"', 'data-field="name"', '{{credentialSubject.name}}', 'data:image/png;base64', '<circle', '<path', '<rect', '<text', '<g>', 'clipPath', '{{issuer.name}}', 'https://img.example.com/p.png']) {
      expect(result.html, kept).toContain(kept);
    }
    expect(result.removed).toEqual([]);
  });
});
