import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TEMPLATE_BOUNDS, TemplateError, renderTemplate } from './template-engine.js';

const dpp = {
  id: 'urn:uuid:1',
  issuer: { id: 'did:web:acme.example', name: 'Acme & Sons' },
  credentialSubject: {
    product: { name: 'Cell <B>', identifiers: ['gtin:1', 'gtin:2'] },
    performanceClaim: [
      { metric: { name: 'Carbon' }, measure: { value: 12.5, unit: 'KGM' }, conformance: true },
      { metric: { name: 'Water' }, measure: { value: 0, unit: 'LTR' }, conformance: false },
    ],
    labels: { eu: 'CE', uk: 'UKCA' },
  },
};

describe('renderTemplate', () => {
  it('fills nested paths and array indices in every syntax, escaping values', () => {
    expect(renderTemplate('{{issuer.name}}|{{credentialSubject.product.identifiers.[1]}}|{{credentialSubject.product.identifiers.0}}|{{credentialSubject/product/name}}', dpp))
      .toBe('Acme &amp; Sons|gtin:2|gtin:1|Cell &lt;B&gt;');
    expect(renderTemplate('{{this.id}} {{./id}} {{ id }}', dpp)).toBe('urn:uuid:1 urn:uuid:1 urn:uuid:1');
    expect(renderTemplate('{{credentialSubject.product.identifiers}}', dpp)).toBe('gtin:1, gtin:2');
  });

  it('escapes triple-stash values too, and quotes so a value cannot leave an attribute', () => {
    const data = { x: '<img src=x onerror=alert(1)>', y: '" onload="alert(1)' };
    expect(renderTemplate('{{{x}}}', data)).toBe('&lt;img src&#x3D;x onerror&#x3D;alert(1)&gt;');
    expect(renderTemplate('<p title="{{y}}">', data)).toBe('<p title="&quot; onload&#x3D;&quot;alert(1)">');
  });

  it('iterates arrays with this, @index, @first, @last and ../, and objects with @key', () => {
    const template = '{{#each credentialSubject.performanceClaim}}{{@index}}:{{metric.name}}={{this.measure.value}} {{measure.unit}} by {{../issuer.name}}{{#if @last}}.{{else}}; {{/if}}{{/each}}';
    expect(renderTemplate(template, dpp)).toBe('0:Carbon=12.5 KGM by Acme &amp; Sons; 1:Water=0 LTR by Acme &amp; Sons.');
    expect(renderTemplate('{{#each credentialSubject.labels}}{{@key}}={{this}}{{#unless @last}},{{/unless}}{{/each}}', dpp)).toBe('eu=CE,uk=UKCA');
    expect(renderTemplate('{{#each credentialSubject.product.identifiers}}[{{.}}|{{@root.id}}]{{/each}}', dpp)).toBe('[gtin:1|urn:uuid:1][gtin:2|urn:uuid:1]');
    expect(renderTemplate('{{#each missing}}x{{else}}none{{/each}}', dpp)).toBe('none');
  });

  it('nests each inside each, and ../ climbs one context per level', () => {
    const data = { name: 'top', groups: [{ name: 'g1', items: [{ name: 'a' }, { name: 'b' }] }] };
    expect(renderTemplate('{{#each groups}}{{#each items}}{{name}}<{{../name}}<{{../../name}} {{/each}}{{/each}}', data)).toBe('a<g1<top b<g1<top ');
  });

  it('chooses with if, else if, else and unless by Handlebars truthiness', () => {
    const t = '{{#if a}}A{{else if b}}B{{else}}C{{/if}}';
    expect(renderTemplate(t, { a: 1 })).toBe('A');
    expect(renderTemplate(t, { b: 'x' })).toBe('B');
    expect(renderTemplate(t, { a: 0, b: [] })).toBe('C');
    expect(renderTemplate('{{#unless ok}}no{{else}}yes{{/unless}}', { ok: true })).toBe('yes');
    expect(renderTemplate('{{#if x}}{{else}}{{^}}{{/if}}', {})).toBe('');
  });

  it('changes the context with with, and renders its else for a missing value', () => {
    expect(renderTemplate('{{#with issuer}}{{name}} ({{id}}) {{../id}}{{/with}}', dpp)).toBe('Acme &amp; Sons (did:web:acme.example) urn:uuid:1');
    expect(renderTemplate('{{#with nothing}}x{{else}}no issuer{{/with}}', dpp)).toBe('no issuer');
  });

  it('renders nothing for unknown helpers, missing values, comments and partials; keeps lookup', () => {
    expect(renderTemplate('[{{formatDate validFrom "YYYY"}}][{{#customBlock x}}in{{/customBlock}}][{{nope.deeper}}][{{!c}}{{!-- {{x}} --}}][{{> partial}}]', dpp)).toBe('[][][][][]');
    expect(renderTemplate('{{lookup credentialSubject.labels "uk"}} {{lookup credentialSubject.product.identifiers 1}}', dpp)).toBe('UKCA gtin:2');
  });

  it('applies ~ whitespace control and keeps \\{{ literal', () => {
    expect(renderTemplate('<b>  {{~ id ~}}  </b>', dpp)).toBe('<b>urn:uuid:1</b>');
    expect(renderTemplate('\\{{id}}', dpp)).toBe('{{id}}');
  });

  it('never reads inherited properties (no prototype walk)', () => {
    expect(renderTemplate('[{{constructor}}][{{__proto__}}][{{a.constructor.name}}][{{toString}}][{{a.length}}]', { a: 'abc' })).toBe('[][][][][3]');
  });

  it('refuses malformed blocks with a TemplateError, and keeps a tag never closed as text', () => {
    expect(() => renderTemplate('{{#each a}}x', {})).toThrow(TemplateError);
    expect(() => renderTemplate('{{#if a}}x{{/each}}', {})).toThrow(/does not close/);
    expect(renderTemplate('{{a}}}}<b>{{', { a: 1 })).toBe('1}}<b>{{');
    expect(() => renderTemplate('{{else}}', {})).toThrow(TemplateError);
  });

  it('is bounded in size, nesting, steps and output', () => {
    expect(() => renderTemplate('x'.repeat(TEMPLATE_BOUNDS.templateChars + 1), {})).toThrow(/at most/);
    const deep = '{{#if a}}'.repeat(TEMPLATE_BOUNDS.nesting + 1) + '{{/if}}'.repeat(TEMPLATE_BOUNDS.nesting + 1);
    expect(() => renderTemplate(deep, { a: 1 })).toThrow(/nest/);
    const ok = '{{#if a}}'.repeat(TEMPLATE_BOUNDS.nesting - 1) + 'in' + '{{/if}}'.repeat(TEMPLATE_BOUNDS.nesting - 1);
    expect(renderTemplate(ok, { a: 1 })).toBe('in');
    // 6 nested loops over 10 items each: a million iterations, stopped by the step bound
    const items = Array.from({ length: 10 }, () => 0);
    const loops = '{{#each l}}'.repeat(6).replace(/l/g, (_, i) => (i === 7 ? 'l' : '@root.l')) + 'x' + '{{/each}}'.repeat(6);
    expect(() => renderTemplate(loops, { l: items })).toThrow(/too many steps/);
    const wide = '{{#each l}}' + '{{@root.s}}'.repeat(1000) + '{{/each}}';
    expect(() => renderTemplate(wide, { l: Array.from({ length: 100 }, () => 0), s: 'y'.repeat(100) })).toThrow(/too long/);
  });

  it('contains no eval or Function constructor (it must run under a strict CSP and on workerd)', () => {
    const source = readFileSync(new URL('./template-engine.js', import.meta.url), 'utf8');
    expect(source).not.toMatch(/\beval\s*\(|new\s+Function|\bFunction\s*\(|\bimport\s*\(/);
  });
});
