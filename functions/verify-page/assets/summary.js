// The facts shown above the credential: type, issuer and validity, as plain text.

/** The credential's types without the generic `VerifiableCredential`. */
export const typeText = (credential) => {
  const types = [credential?.type].flat().filter((t) => typeof t === 'string');
  const specific = types.filter((t) => t !== 'VerifiableCredential');
  return (specific.length ? specific : types).join(', ') || undefined;
};

/** `Name (id)`, the name or the id alone, for a string or object issuer. */
export const issuerText = (credential) => {
  const issuer = credential?.issuer;
  if (typeof issuer === 'string') return issuer || undefined;
  if (!issuer || typeof issuer !== 'object') return undefined;
  const name = typeof issuer.name === 'string' ? issuer.name : undefined;
  const id = typeof issuer.id === 'string' ? issuer.id : undefined;
  if (name && id) return `${name} (${id})`;
  return name ?? id;
};

/** The UTC calendar date `YYYY-MM-DD` of a date-time, or undefined when it does not parse. */
export const utcDate = (value) => {
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return undefined;
  const iso = new Date(ms).toISOString();
  return /^\d{4}-\d{2}-\d{2}T/.test(iso) ? iso.slice(0, 10) : undefined;
};

/** What the status check found, for a verified credential (a revoked or suspended one does not verify). */
export const statusText = (credential, verified) => {
  if (!verified) return undefined;
  return credential?.credentialStatus ? 'Not revoked or suspended' : 'Not checked: the credential has no status list entry';
};

/** Label/value rows for the summary list; rows without a value are left out. */
export const summaryRows = (credential, verified = false) =>
  [
    ['Type', typeText(credential)],
    ['Issuer', issuerText(credential)],
    ['Valid from', utcDate(credential?.validFrom ?? credential?.issuanceDate)],
    ['Valid until', utcDate(credential?.validUntil ?? credential?.expirationDate)],
    ['Status', statusText(credential, verified)],
  ].filter(([, value]) => value !== undefined);
