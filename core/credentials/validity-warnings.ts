import type { IssuanceWarning } from './conformity-warnings.ts';

const timeOf = (value: unknown): number | undefined => {
  if (typeof value !== 'string') return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
};

/**
 * Advice on a credential's validity window at issuance (never a refusal: a back-dated or future window
 * can be intended). Verifiers such as the UNTP Playground fail a credential outside its window, so
 * the issuer is told: VALIDITY_INVERTED (validUntil before validFrom), VALIDITY_ENDED (validUntil
 * already past), VALIDITY_NOT_STARTED (validFrom still ahead).
 */
export const validityWarnings = (payload: Record<string, unknown>, now: Date = new Date()): IssuanceWarning[] => {
  const from = timeOf(payload.validFrom);
  const until = timeOf(payload.validUntil);
  const warnings: IssuanceWarning[] = [];
  if (from !== undefined && until !== undefined && until < from) {
    warnings.push({ code: 'VALIDITY_INVERTED', message: 'validUntil is before validFrom: the credential is never valid', pointer: '/validUntil' });
  }
  if (until !== undefined && until < now.getTime()) {
    warnings.push({ code: 'VALIDITY_ENDED', message: `validUntil (${new Date(until).toISOString()}) has passed: verifiers will report the credential expired`, pointer: '/validUntil' });
  }
  if (from !== undefined && from > now.getTime()) {
    warnings.push({ code: 'VALIDITY_NOT_STARTED', message: `validFrom (${new Date(from).toISOString()}) is in the future: verifiers will report the credential not yet valid`, pointer: '/validFrom' });
  }
  return warnings;
};
