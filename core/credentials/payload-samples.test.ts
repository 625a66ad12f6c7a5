import { describe, expect, it } from 'vitest';
import { createPayloadChecks } from './payload-validation.ts';
import { documentSettings, offlineFetcher, readSample, sampleFiles } from './test-support/offline.ts';

/** The schema each published sample belongs to, from its folder and file name. */
const schemaOf = (file: string): string => {
  const [folder] = file.split('/');
  const code = /untp-(\w+)-instance/.exec(file)?.[1] ?? /\/(\w+)\//.exec(file)?.[1];
  if (folder === '0.6.0' || folder === '0.6.1') return `https://test.uncefact.org/vocabulary/untp/${code}/untp-${code}-schema-${folder}.json`;
  if (folder === '0.7.0') return 'https://untp.unece.org/artefacts/schema/v0.7.0/cvc/ConformityScheme.json';
  const files: Record<string, string> = { dpp: 'DigitalProductPassport', dcc: 'ConformityCredential', dfr: 'DigitalFacilityRecord', dia: 'DigitalIdentityAnchor', dte: 'DigitalTraceabilityEvent' };
  return `https://untp.unece.org/artefacts/schema/v0.7.0/${code}/${files[code!]}.json`;
};

const W3C_VC_SCHEMA = 'https://w3c.github.io/vc-data-model/schema/verifiable-credential/verifiable-credential-schema.json';

/** Credentials also meet the W3C VC schema; the conformity-scheme sample is a catalogue document, not a VC. */
const schemasOf = (file: string) => (file.startsWith('0.7.0/') ? [schemaOf(file)] : [schemaOf(file), W3C_VC_SCHEMA]);

/**
 * This pre-release sample puts `renderTemplate2024: { mediaQuery, … }` at the credential's root, where the
 * 0.7.0 context's type-scoped vocabulary does not reach the nested object: `mediaQuery` is undefined there
 * (the context defines it only inside a `RenderTemplate2024`-typed render method). It is refused, as it
 * should be, rather than adjusted.
 */
const UNDEFINED_TERM_SAMPLE = '0.7.0-prerelease/dia/DigitalIdentityAnchor_instance.json';
const validSamples = () => sampleFiles().filter((f) => f !== UNDEFINED_TERM_SAMPLE);

describe('published UNTP samples, offline (bundled artefacts)', () => {
  const checks = createPayloadChecks(offlineFetcher(), documentSettings());

  it('covers every type at 0.6.0, 0.6.1 and 0.7.0', () => {
    const files = sampleFiles();
    expect(files.filter((f) => f.startsWith('0.6.0/'))).toHaveLength(5);
    expect(files.filter((f) => f.startsWith('0.6.1/'))).toHaveLength(5);
    for (const code of ['dpp', 'dcc', 'dfr', 'dia', 'dte']) expect(files.some((f) => f.startsWith(`0.7.0-prerelease/${code}/`))).toBe(true);
  });

  it.each(validSamples())('%s passes its UNTP schema (and the W3C VC schema) and expands with every term defined', async (file) => {
    const payload = readSample(file);
    await expect(checks.validateSchemas(payload, schemasOf(file))).resolves.toBeUndefined();
    const expanded = await checks.expand(payload);
    expect(expanded.length).toBeGreaterThan(0);
  });

  it('refuses the pre-release DIA sample whose render template sits outside the context, naming the term', async () => {
    const payload = readSample(UNDEFINED_TERM_SAMPLE);
    await expect(checks.validateSchemas(payload, schemasOf(UNDEFINED_TERM_SAMPLE))).resolves.toBeUndefined();
    await expect(checks.expand(payload)).rejects.toMatchObject({
      status: 400,
      code: 'JSONLD_DOCUMENT_INVALID',
      message: 'credentialPayload/renderTemplate2024/mediaQuery: "mediaQuery" is not defined by the credential\'s @context',
      extra: { pointer: '/renderTemplate2024/mediaQuery' },
    });
  });
});
