import { describe, expect, it } from 'vitest';
import { renderTemplate } from '../render-templates/template-engine.js';
import { systemTemplateHtml } from '../render-templates/system-templates.ts';
import { CORE_DATA_MODELS } from '../data-models/core-data-models.ts';
import { sampleCredential } from './sample-credential.ts';

describe('sampleCredential', () => {
  const now = new Date('2026-11-28T10:00:00Z');

  it('builds the product passport the console issues, from example master data', () => {
    const sample = sampleCredential({ credentialType: 'DigitalProductPassport', version: '0.7.0', contextUrl: 'https://test.uncefact.org/vocabulary/untp/dpp/0.7.0/' }, now);
    expect(sample).toMatchObject({ issuer: { id: 'did:web:issuer.example.com', name: 'Example Manufacturing Ltd' }, credentialSubject: { name: 'Example Cell A1' } });
    expect(renderTemplate(systemTemplateHtml('DigitalProductPassport', '0.7.0'), sample)).toContain('Example Cell A1');
  });

  it.each(CORE_DATA_MODELS.filter((m) => m.credentialType !== 'ConformityScheme').map((m) => [`${m.credentialType} ${m.version}`, m] as const))(
    '%s: its system template shows the sample with no empty heading',
    (_, model) => {
      const html = renderTemplate(systemTemplateHtml(model.credentialType, model.version), sampleCredential(model, now));
      expect(html).not.toMatch(/<h[1-6][^>]*>\s*<\/h[1-6]>/);
      expect(html).toContain('Issued by Example Manufacturing Ltd');
      expect(html).toMatch(/Example (Cell A1|Plant 1|Manufacturing Ltd|emissions certificate)|Manufacturing/);
    },
  );

  it('gives a model the console does not build the fields every credential has', () => {
    const sample = sampleCredential({ credentialType: 'ExampleExtension', version: '1.0.0', contextUrl: 'https://example.com/ext/1.0.0/' }, now);
    expect(sample).toMatchObject({ type: ['VerifiableCredential', 'ExampleExtension'], issuer: { name: 'Example Manufacturing Ltd' }, validFrom: '2026-11-28T10:00:00Z' });
    const html = renderTemplate(systemTemplateHtml('ExampleExtension', '1.0.0'), sample);
    expect(html).toContain('Issued by Example Manufacturing Ltd');
    expect(html).not.toMatch(/<h[1-6][^>]*>\s*<\/h[1-6]>/);
  });
});
