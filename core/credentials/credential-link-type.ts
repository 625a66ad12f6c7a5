/**
 * The resolver link type a credential of each UNTP core type is published under when neither the
 * request nor the IDR instance names one: the type's own relation (UNTP 0.7.0 link types `dpp`, `dcc`,
 * `dfr`, `dte`, `dia`, written with the resolver's `untp:` prefix, which it turns into
 * `<vocabulary>/dpp` in the link sets it serves).
 */
const LINK_TYPE_BY_CORE_TYPE: Record<string, string> = {
  DigitalProductPassport: 'untp:dpp',
  DigitalConformityCredential: 'untp:dcc',
  DigitalFacilityRecord: 'untp:dfr',
  DigitalTraceabilityEvent: 'untp:dte',
  DigitalIdentityAnchor: 'untp:dia',
};

/** The last resort for a credential that is none of the core types (peer §1.1). */
const FALLBACK_LINK_TYPE = 'gs1:sustainabilityInfo';

export const linkTypeOfCoreType = (coreCredentialType: string | null): string =>
  (coreCredentialType !== null && Object.hasOwn(LINK_TYPE_BY_CORE_TYPE, coreCredentialType) ? LINK_TYPE_BY_CORE_TYPE[coreCredentialType] : undefined) ?? FALLBACK_LINK_TYPE;
