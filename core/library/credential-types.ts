/** The five UNTP core credential types by the short codes the library speaks (peer §4.2). */
export const CORE_TYPE_CODES = {
  DFR: 'DigitalFacilityRecord',
  DCC: 'DigitalConformityCredential',
  DPP: 'DigitalProductPassport',
  DTE: 'DigitalTraceabilityEvent',
  DIA: 'DigitalIdentityAnchor',
} as const;
export type CoreTypeCode = keyof typeof CORE_TYPE_CODES;
export const CORE_TYPE_CODE_LIST = Object.keys(CORE_TYPE_CODES) as [CoreTypeCode, ...CoreTypeCode[]];

/** A stored core type name as its code; anything else (an extension, nothing) is null. */
export const toTypeCode = (coreCredentialType: string | null): CoreTypeCode | null =>
  (Object.entries(CORE_TYPE_CODES).find(([, name]) => name === coreCredentialType)?.[0] as CoreTypeCode | undefined) ?? null;

/** The core type a decoded credential declares in its `type` array, if any. */
export const coreTypeInCredential = (credential: Record<string, unknown>): string | null => {
  const types = Array.isArray(credential.type) ? credential.type : [credential.type];
  const names = Object.values(CORE_TYPE_CODES) as string[];
  return (types.find((t) => typeof t === 'string' && names.includes(t)) as string | undefined) ?? null;
};
