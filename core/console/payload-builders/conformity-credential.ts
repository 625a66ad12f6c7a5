import { isV06, UNTP_VERSIONS, type BuilderInput, type PayloadBuilder } from './builder.ts';
import { oneOf, party, PayloadInputError, required, typed, type CatalogueEntry } from './master-records.ts';

/** The assurance vocabularies, which UNTP 0.7.0 renamed. */
const ASSESSOR_LEVELS = {
  '0.6': ['Self', 'Commercial', 'Buyer', 'Membership', 'Unspecified', '3rdParty'],
  '0.7': ['self', 'commercial', 'buyer', 'membership', 'unspecified', '3rdParty', 'hybrid'],
} as const;
const ASSESSMENT_LEVELS = {
  '0.6': ['GovtApproval', 'GlobalMRA', 'Accredited', 'Verified', 'Validated', 'Unspecified'],
  '0.7': ['authority-benchmark', 'authority-mandate', 'authority-globalmra', 'authority-peer', 'authority-extended-mra', 'scheme-self', 'scheme-cab', 'no-endorsement'],
} as const;
const ATTESTATION_TYPES = ['certification', 'declaration', 'inspection', 'testing', 'verification', 'validation', 'calibration'] as const;

const family = (version: string) => (isV06(version) ? '0.6' : '0.7');

/** UNTP 0.6.x's scope: the scheme with its owner (0.6.1 also its version and start, from the profile when chosen). */
const scopeV06 = (version: string, scheme: CatalogueEntry, profile: CatalogueEntry | undefined) => {
  if (!scheme.owner) throw new PayloadInputError('conformityScheme', `has no owner in the catalogue, which a UNTP ${version} attestation names`);
  if (version === '0.6.0') return { type: ['ConformityAssessmentScheme', 'Standard'], id: scheme.id, name: scheme.name, issuingParty: scheme.owner };
  const schemeVersion = profile?.version ?? scheme.version;
  const validFrom = profile?.validFrom ?? scheme.validFrom;
  if (!schemeVersion || !validFrom || !/^\d{4}-\d{2}-\d{2}$/.test(validFrom)) {
    throw new PayloadInputError('conformityProfile', `choose a profile with a version and a start date, which a UNTP ${version} attestation names`);
  }
  return { type: ['ConformityScheme'], id: scheme.id, name: scheme.name, description: scheme.name, version: schemeVersion, validFrom, owner: scheme.owner };
};

/**
 * The Digital Conformity Credential: an attestation, issued to the chosen organisation, against the chosen
 * conformity scheme (and profile of it, when chosen): the scheme is what the attestation is about, so it is
 * required here although form-config marks the picker optional for the other types.
 */
const build = (input: BuilderInput) => {
  const scheme = required(input.conformityScheme, 'conformityScheme', 'the conformity scheme attested against');
  const title = typed(input.values, 'attestationName', 'the attestation’s title');
  const levels = family(input.version);
  const common = {
    id: `urn:uuid:${crypto.randomUUID()}`,
    name: title,
    assessorLevel: oneOf(input.values, 'assessorLevel', ASSESSOR_LEVELS[levels]),
    assessmentLevel: oneOf(input.values, 'assessmentLevel', ASSESSMENT_LEVELS[levels]),
    attestationType: oneOf(input.values, 'attestationType', ATTESTATION_TYPES),
    issuedToParty: party(input.organisation, input.issuerDid),
  };
  const profile = input.conformityProfile;
  if (isV06(input.version)) {
    return { name: title, subject: { type: ['ConformityAttestation', 'Attestation'], ...common, scope: scopeV06(input.version, scheme, profile) } };
  }
  return {
    name: title,
    subject: {
      type: ['ConformityAttestation'],
      ...common,
      referenceScheme: { type: ['ConformityScheme'], id: scheme.id, name: scheme.name },
      ...(profile ? { referenceProfile: { type: ['ConformityProfile'], id: profile.id, name: profile.name } } : {}),
    },
  };
};

export const conformityCredential: PayloadBuilder = {
  credentialType: 'DigitalConformityCredential',
  versions: UNTP_VERSIONS,
  pickers: ['organisation', 'conformityScheme', 'conformityProfile'],
  requires: ['conformityScheme'],
  fields: (version) => [
    { key: 'attestationName', label: 'Title of the attestation', hint: 'Typically the certificate’s title' },
    { key: 'attestationType', label: 'Attestation type', choices: ATTESTATION_TYPES },
    { key: 'assessorLevel', label: 'Assessor level', choices: ASSESSOR_LEVELS[family(version)] },
    { key: 'assessmentLevel', label: 'Assessment level', choices: ASSESSMENT_LEVELS[family(version)] },
  ],
  build,
};
