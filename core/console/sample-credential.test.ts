import { describe, expect, it } from 'vitest';
import { renderTemplate } from '../render-templates/template-engine.js';
import { systemTemplateHtml } from '../render-templates/system-templates.ts';
import { sampleCredential } from './sample-credential.ts';

describe('sampleCredential', () => {
  const now = new Date('2026-11-28T10:00:00Z');

  it('builds the product passport the console issues, from example master data', () => {
    const sample = sampleCredential({ credentialType: 'DigitalProductPassport', version: '0.7.0', contextUrl: 'https://test.uncefact.org/vocabulary/untp/dpp/0.7.0/' }, now);
    expect(sample).toMatchObject({ issuer: { id: 'did:web:issuer.example.com', name: 'Example Manufacturing Ltd' }, credentialSubject: { name: 'Example Cell A1' } });
    expect(renderTemplate(systemTemplateHtml('DigitalProductPassport', '0.7.0'), sample)).toContain('Example Cell A1');
  });

  it('gives any other model the fields every credential has, so a template preview fills them', () => {
    const sample = sampleCredential({ credentialType: 'DigitalTraceabilityEvent', version: '0.6.1', contextUrl: 'https://example.com/dte/0.6.1/' }, now);
    expect(sample).toMatchObject({ type: ['VerifiableCredential', 'DigitalTraceabilityEvent'], issuer: { name: 'Example Manufacturing Ltd' }, validFrom: '2026-11-28T10:00:00Z' });
    const html = renderTemplate(systemTemplateHtml('DigitalTraceabilityEvent', '0.6.1'), sample);
    // The type's own system template shows the fields every credential has: issuer, validity, id.
    expect(html).toContain('Issued by Example Manufacturing Ltd');
    expect(html).toContain('valid from 2026-11-28T10:00:00Z');
    expect(html).toContain('urn:uuid:00000000-0000-4000-8000-000000000001');
  });
});
