import { issuanceAssertion, toEnvelope, type VerificationEnvelope } from './verification-envelope.ts';
import type { RecordView } from './record-queries.ts';

export type CurrencyStatus = 'current' | 'not_yet_valid' | 'expired' | 'unknown';

/** Where the credential stands in its validity window now; without a start date it is unknown. */
export const currencyOf = (validFrom: Date | null, validUntil: Date | null, now: Date): CurrencyStatus => {
  if (validUntil && validUntil.getTime() < now.getTime()) return 'expired';
  if (!validFrom) return 'unknown';
  return validFrom.getTime() > now.getTime() ? 'not_yet_valid' : 'current';
};

export interface Capabilities {
  deletable: boolean;
  annotatable: boolean;
  taggable: boolean;
  verifiable: boolean;
  statusManageable: boolean;
}

/**
 * What a caller may do with the record here. Native records are deleted through /credentials and carry
 * no annotations; an external copy still holding unopened ciphertext cannot be verified again.
 */
export const capabilitiesOf = (view: RecordView): Capabilities => {
  const native = view.record.origin === 'NATIVE';
  return {
    deletable: !native,
    annotatable: !native,
    taggable: true,
    verifiable: native || !view.external?.unopened,
    statusManageable: native && view.statusEntries.length > 0,
  };
};

export interface RecordWarning {
  code: 'DUPLICATE_CONTENT' | 'DECLARED_TYPE_MISMATCH' | 'SCHEMA_CONFORMANCE_ADVISORY' | 'DECRYPTION_KEY_UNUSED' | 'DECRYPTION_KEY_UNAVAILABLE';
  message: string;
  relatedRecordId?: string;
}

export const warningsOf = (view: RecordView): RecordWarning[] => {
  const warnings: RecordWarning[] = [];
  const external = view.external;
  if (external?.duplicateOfRecordId) {
    warnings.push({
      code: 'DUPLICATE_CONTENT',
      message: 'Another record of this tenant holds the same credential content.',
      relatedRecordId: external.duplicateOfRecordId,
    });
  }
  if (external && view.record.detailsStatus === 'EXTRACTED' && view.record.coreCredentialType !== external.declaredCredentialType) {
    warnings.push({ code: 'DECLARED_TYPE_MISMATCH', message: 'The credential does not carry the declared credential type.' });
  }
  if (view.latestRun?.schemaConformance === 'fail') {
    warnings.push({
      code: 'SCHEMA_CONFORMANCE_ADVISORY',
      message: view.latestRun.schemaConformanceMessage ?? 'The credential does not conform to its schema.',
    });
  }
  if (external?.decryptionKeyUnused) {
    warnings.push({ code: 'DECRYPTION_KEY_UNUSED', message: 'A decryption key was supplied but the source was not encrypted; it was discarded.' });
  }
  return warnings;
};

/** The latest generation, or the issuance assertion of a native record never verified again. */
export const verificationOf = (view: RecordView): VerificationEnvelope =>
  view.latestRun ? toEnvelope(view.latestRun, view.record.origin) : issuanceAssertion(view.record.createdAt);

/** A native credential's standing from its status entries; external records have none. */
export const lifecycleOf = (view: RecordView): 'active' | 'revoked' | 'suspended' | 'unknown' | null => {
  if (view.record.origin !== 'NATIVE') return null;
  const value = (purpose: string) => view.statusEntries.find((e) => e.statusPurpose === purpose)?.value;
  if (value('revocation') === true) return 'revoked';
  if (value('suspension') === true) return 'suspended';
  if (view.statusEntries.length > 0 && view.statusEntries.every((e) => e.value === false)) return 'active';
  return 'unknown';
};

/** A record whose child row is missing cannot be shown; lists report it as a failure instead. */
export const isReadable = (view: RecordView): boolean => (view.record.origin === 'NATIVE' ? view.native !== null : view.external !== null);
