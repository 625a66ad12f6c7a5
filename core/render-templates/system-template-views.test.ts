import { describe, expect, it } from 'vitest';
import { readSample } from '../credentials/test-support/offline.ts';
import { sanitizeTemplate } from './sanitize.ts';
import { renderTemplate } from './template-engine.js';
import { systemTemplateHtml } from './system-templates.ts';

/** Each sample and facts its card must show (text as rendered, HTML-escaped). */
const CASES: [string, string, string, string[]][] = [
  ['DigitalProductPassport', '0.7.0', '0.7.0-prerelease/dpp/DigitalProductPassport_instance.json', ['Copper Concentrate (Cu 30%)', 'SM-CU-CONC-30', 'Product Carbon Footprint', '2.1 KGM', 'Sample Copper Mine', 'Zambia']],
  ['DigitalConformityCredential', '0.7.0', '0.7.0-prerelease/dcc/ConformityCredential_instance.json', ['GHG Emissions Assessment (Criteria 26, 27)', '2025-01-10']],
  ['DigitalFacilityRecord', '0.7.0', '0.7.0-prerelease/dfr/DigitalFacilityRecord_instance.json', ['fac-001']],
  ['DigitalIdentityAnchor', '0.7.0', '0.7.0-prerelease/dia/DigitalIdentityAnchor_mine_instance.json', []],
  ['DigitalTraceabilityEvent', '0.7.0', '0.7.0-prerelease/dte/DigitalTraceabilityEvent_instance.json', []],
  ['DigitalProductPassport', '0.6.1', '0.6.1/untp-dpp-instance-0.6.1.json', ['1.8', 'KGM', 'GBA Battery Passport Greenhouse Gas Rulebook - V.2.0']],
  ['DigitalConformityCredential', '0.6.1', '0.6.1/untp-dcc-instance-0.6.1.json', ['Product GHG Footprint certificate in accordance with GBA Rulebook.', '2024-03-15']],
  ['DigitalFacilityRecord', '0.6.1', '0.6.1/untp-dfr-instance-0.6.1.json', []],
  ['DigitalIdentityAnchor', '0.6.1', '0.6.1/untp-dia-instance-0.6.1.json', []],
  ['DigitalTraceabilityEvent', '0.6.1', '0.6.1/untp-dte-instance-0.6.1.json', []],
];

const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;').replace(/=/g, '&#x3D;');

describe('system templates on the published samples', () => {
  it.each(CASES)('%s %s shows its title, name, issuer and key facts, and survives sanitising unchanged', (type, version, file, facts) => {
    const template = systemTemplateHtml(type, version);
    expect(sanitizeTemplate(template).removed).toEqual([]);
    const sample = readSample(file);
    const html = renderTemplate(template, sample);
    const issuer = sample.issuer as { name?: string; id: string };
    expect(html).toContain(`UNTP ${version}`);
    expect(html).toContain(escaped(issuer.name ?? issuer.id));
    // the card's heading is never empty on a sample
    expect(/<h1 id="untp-card-title">([^<]+)<\/h1>/.exec(html)?.[1]?.trim()).toBeTruthy();
    for (const fact of facts) expect(html).toContain(escaped(fact));
    expect(html).not.toContain('{{');
  });
});
