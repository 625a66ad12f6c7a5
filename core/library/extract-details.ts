import { coreTypeOf } from './credential-types.ts';

/** The descriptive fields the library lists and filters on, as read from a decoded credential. */
export interface CredentialDetails {
  name: string | null;
  coreCredentialType: string | null;
  issuerName: string | null;
  issuerDid: string | null;
  subjectName: string | null;
  subjectId: string | null;
  validFrom: Date | null;
  validUntil: Date | null;
}

const textOf = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);
const objectOf = (value: unknown): Record<string, unknown> | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
const dateOf = (value: unknown): Date | null => {
  if (typeof value !== 'string') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** Reads what it can; a field the credential does not carry (or carries malformed) is null. */
export const extractDetails = (credential: Record<string, unknown>): CredentialDetails => {
  const issuer = typeof credential.issuer === 'string' ? { id: credential.issuer } : objectOf(credential.issuer);
  const subjectValue = Array.isArray(credential.credentialSubject) ? credential.credentialSubject[0] : credential.credentialSubject;
  const subject = objectOf(subjectValue);
  return {
    name: textOf(credential.name),
    coreCredentialType: coreTypeOf(credential),
    issuerName: textOf(issuer?.name),
    issuerDid: textOf(issuer?.id),
    subjectName: textOf(subject?.name),
    subjectId: textOf(subject?.id),
    validFrom: dateOf(credential.validFrom),
    validUntil: dateOf(credential.validUntil),
  };
};
