import { extractCredentialDetails } from '../credentials/credential-details.ts';
import { coreTypeInCredential } from './credential-types.ts';

/**
 * An external record's descriptive fields read from its decoded credential: the credential's own
 * values, with the tenant's declared type and display name where the credential names none.
 */
export const externalDetailsOf = (payload: Record<string, unknown>, fallback: { declaredType: string; displayName: string }) => {
  const coreCredentialType = coreTypeInCredential(payload) ?? fallback.declaredType;
  const { details } = extractCredentialDetails(payload);
  return {
    ...details,
    name: details.name ?? fallback.displayName,
    credentialType: coreCredentialType,
    coreCredentialType,
    detailsStatus: 'EXTRACTED' as const,
    detailsError: null,
  };
};
