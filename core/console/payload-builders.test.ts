import { describe, expect, it } from 'vitest';
import { createPayloadChecks } from '../credentials/payload-validation.ts';
import { documentSettings, offlineFetcher } from '../credentials/test-support/offline.ts';
import { CORE_DATA_MODELS } from '../data-models/core-data-models.ts';
import { canBuildPayload, payloadFromMasterData, PayloadInputError } from './payload-from-master-data.ts';
import { EXAMPLE_CHOICES, sampleCredential } from './sample-credential.ts';

/** Every core credential model (the conformity scheme is a catalogue document, not a credential a person issues). */
const CREDENTIAL_MODELS = CORE_DATA_MODELS.filter((m) => m.credentialType !== 'ConformityScheme');

describe('a payload builder for every core credential type and version', () => {
  const checks = createPayloadChecks(offlineFetcher(), documentSettings());

  it('covers the five UNTP credential types at 0.6.0, 0.6.1 and 0.7.0', () => {
    expect(CREDENTIAL_MODELS).toHaveLength(15);
    for (const m of CREDENTIAL_MODELS) expect(canBuildPayload(m.credentialType, m.version)).toBe(true);
    expect(canBuildPayload('ConformityScheme', '0.7.0')).toBe(false);
  });

  it.each(CREDENTIAL_MODELS.map((m) => [`${m.credentialType} ${m.version}`, m] as const))('%s passes its UNTP schema and expands with every term defined', async (_, model) => {
    const payload = sampleCredential(model, new Date('2026-01-02T03:04:05Z'));
    expect(payload.type).toEqual([model.credentialType, 'VerifiableCredential']);
    await expect(checks.validateSchemas(payload, [model.schemaUrl])).resolves.toBeUndefined();
    await expect(checks.expand(payload)).resolves.not.toHaveLength(0);
  });

  const dcc = CREDENTIAL_MODELS.find((m) => m.credentialType === 'DigitalConformityCredential' && m.version === '0.7.0')!;
  const build = (changes: Record<string, unknown>) => () =>
    payloadFromMasterData({ ...dcc, ...EXAMPLE_CHOICES, values: { ...EXAMPLE_CHOICES.values, assessorLevel: '3rdParty', assessmentLevel: 'scheme-cab' }, ...changes });

  it('puts the chosen scheme and profile in the conformity credential', () => {
    expect(build({})()).toMatchObject({
      credentialSubject: {
        referenceScheme: { id: EXAMPLE_CHOICES.conformityScheme.id, name: EXAMPLE_CHOICES.conformityScheme.name },
        referenceProfile: { id: EXAMPLE_CHOICES.conformityProfile.id },
        issuedToParty: { name: EXAMPLE_CHOICES.organisation.name },
      },
    });
    expect(build({ conformityProfile: undefined })()).not.toHaveProperty('credentialSubject.referenceProfile');
  });

  it('names the field of a missing choice or value', () => {
    expect(build({ conformityScheme: undefined })).toThrow(new PayloadInputError('conformityScheme', 'choose the conformity scheme attested against'));
    expect(build({ values: { ...EXAMPLE_CHOICES.values, assessorLevel: 'Self', assessmentLevel: 'scheme-cab' } })).toThrow(/^assessorLevel: must be one of self, /);
    const dia = CREDENTIAL_MODELS.find((m) => m.credentialType === 'DigitalIdentityAnchor' && m.version === '0.7.0')!;
    expect(() => payloadFromMasterData({ ...dia, ...EXAMPLE_CHOICES, organisation: { id: 'o', name: 'No identifier' } })).toThrow(/^organisation: needs a primary identifier/);
    expect(() => payloadFromMasterData({ ...dia, ...EXAMPLE_CHOICES, values: { registeredDate: '2020-13-45' } })).toThrow(/^registeredDate: must be a date/);
    const dte = CREDENTIAL_MODELS.find((m) => m.credentialType === 'DigitalTraceabilityEvent' && m.version === '0.7.0')!;
    expect(() => payloadFromMasterData({ ...dte, ...EXAMPLE_CHOICES, facility: undefined })).toThrow(/^facility: choose the facility where it was made/);
    const dfr = CREDENTIAL_MODELS.find((m) => m.credentialType === 'DigitalFacilityRecord' && m.version === '0.6.1')!;
    expect(() => payloadFromMasterData({ ...dfr, ...EXAMPLE_CHOICES, values: { ...EXAMPLE_CHOICES.values, postalCode: ' ' } })).toThrow(/^postalCode: enter the postal code/);
  });
});
