/** The descriptive fields of a credential record (what the library lists, filters and sorts on). */
export interface CredentialDetails {
  name: string | null;
  issuerName: string | null;
  issuerDid: string | null;
  subjectName: string | null;
  subjectId: string | null;
  validFrom: Date | null;
  validUntil: Date | null;
}

/** The five UNTP credential types a record may be a core type of. */
const CORE_CREDENTIAL_TYPES = [
  'DigitalProductPassport',
  'DigitalConformityCredential',
  'DigitalFacilityRecord',
  'DigitalIdentityAnchor',
  'DigitalTraceabilityEvent',
] as const;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const textOf = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
const first = (v: unknown): unknown => (Array.isArray(v) ? v[0] : v);

/** An ISO date-time as a Date; absent is null; present but unreadable is a failure the caller reports. */
const instant = (v: unknown, field: string, problems: string[]): Date | null => {
  if (v === undefined || v === null) return null;
  const date = typeof v === 'string' ? new Date(v) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime())) {
    problems.push(`${field} is not a date-time`);
    return null;
  }
  return date;
};

/**
 * Reads the descriptive fields of a decoded credential (W3C VC 2.0): name, issuer (DID and name),
 * the first subject's id and name, and the validity window. Never throws: fields it cannot read are
 * null and named in `problems`, so a record can say its details were only partly extracted.
 */
export const extractCredentialDetails = (credential: unknown): { details: CredentialDetails; problems: string[] } => {
  const problems: string[] = [];
  const vc = isObject(credential) ? credential : {};
  if (!isObject(credential)) problems.push('the credential is not a JSON object');
  const issuer = vc.issuer;
  const subject = first(vc.credentialSubject);
  const subjectObject = isObject(subject) ? subject : {};
  return {
    details: {
      name: textOf(vc.name),
      issuerName: isObject(issuer) ? textOf(issuer.name) : null,
      issuerDid: textOf(issuer) ?? (isObject(issuer) ? textOf(issuer.id) : null),
      subjectName: textOf(subjectObject.name),
      subjectId: textOf(subjectObject.id),
      validFrom: instant(vc.validFrom, 'validFrom', problems),
      validUntil: instant(vc.validUntil, 'validUntil', problems),
    },
    problems,
  };
};

/** The core type of a requested type, when it is one of the five. */
export const coreTypeOf = (credentialType: string): string | null =>
  (CORE_CREDENTIAL_TYPES as readonly string[]).includes(credentialType) ? credentialType : null;
