import type { Queryable } from '../../db/client.ts';
import { profileCriteria, schemeIsVisible, visibleProfile } from '../conformity/catalogue-lookup.ts';
import { jsonPointer } from './payload-errors.ts';

/** An advisory finding returned with an issued credential; it never blocks issuance. */
export interface IssuanceWarning {
  code: string;
  message: string;
  pointer?: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const idOf = (v: unknown): string | undefined => (isObject(v) && typeof v.id === 'string' ? v.id : undefined);

/** Whether a data model's core type and version get the conformity checks (DCC 0.7.0 only). */
export const hasConformityChecks = (core: { credentialType: string; version: string }) =>
  core.credentialType === 'DigitalConformityCredential' && core.version === '0.7.0';

const checkAttestation = async (db: Queryable, tenantId: string, attestation: Json, at: (string | number)[]): Promise<IssuanceWarning[]> => {
  const schemeId = idOf(attestation.referenceScheme);
  if (!schemeId) return [];
  if (!(await schemeIsVisible(db, tenantId, schemeId))) {
    return [{ code: 'conformity-scheme.not-found', message: `Conformity scheme ${schemeId} is not in the catalogue`, pointer: jsonPointer([...at, 'referenceScheme', 'id']) }];
  }
  const profileId = idOf(attestation.referenceProfile);
  if (!profileId) {
    return [{ code: 'conformity-profile.not-specified', message: `The attestation names scheme ${schemeId} but no referenceProfile`, pointer: jsonPointer([...at, 'referenceProfile']) }];
  }
  const profile = await visibleProfile(db, tenantId, profileId);
  if (!profile || profile.schemeId !== schemeId) {
    return [{ code: 'conformity-profile.not-found', message: `Conformity profile ${profileId} is not in the catalogue under scheme ${schemeId}`, pointer: jsonPointer([...at, 'referenceProfile', 'id']) }];
  }
  const criteria = await profileCriteria(db, profile);
  const warnings: IssuanceWarning[] = [];
  asArray(attestation.conformityAssessment).forEach((assessment, a) => {
    if (!isObject(assessment)) return;
    asArray(assessment.assessmentCriteria).forEach((criterion, c) => {
      const criterionId = idOf(criterion);
      if (!criterionId || !isObject(criterion)) return;
      const place = [...at, 'conformityAssessment', a, 'assessmentCriteria', c];
      const topics = criteria.get(criterionId);
      if (!topics) {
        warnings.push({ code: 'conformity-criterion.not-in-profile', message: `Criterion ${criterionId} is not part of profile ${profileId}`, pointer: jsonPointer([...place, 'id']) });
        return;
      }
      const claimed = asArray(criterion.conformityTopic).map(idOf).filter((t): t is string => t !== undefined);
      const foreign = claimed.filter((t) => !topics.includes(t));
      if (foreign.length > 0) {
        warnings.push({ code: 'conformity-criterion.topic-mismatch', message: `Criterion ${criterionId} does not cover topic(s) ${foreign.join(', ')}`, pointer: jsonPointer([...place, 'conformityTopic']) });
      }
    });
  });
  return warnings;
};

/**
 * Advisory checks of a DigitalConformityCredential 0.7.0 against the tenant-visible conformity catalogue:
 * the referenced scheme, profile and criteria (with their topics) should be known. Findings are
 * warnings only; a catalogue that cannot be read becomes a warning too, never a refusal.
 */
export const conformityWarnings = async (db: Queryable, tenantId: string, payload: unknown): Promise<IssuanceWarning[]> => {
  if (!isObject(payload)) return [];
  const subjects = Array.isArray(payload.credentialSubject) ? payload.credentialSubject : [payload.credentialSubject];
  try {
    const found = await Promise.all(
      subjects.map((subject, i) =>
        isObject(subject) ? checkAttestation(db, tenantId, subject, Array.isArray(payload.credentialSubject) ? ['credentialSubject', i] : ['credentialSubject']) : [],
      ),
    );
    return found.flat();
  } catch {
    return [{ code: 'conformity-claim.validation-error', message: 'The conformity catalogue could not be read; the conformity claims were not checked' }];
  }
};
