/** did:web text rules (W3C did:web method): names, aliases and where a document is hosted. */

/** `did:<method>:<identifier>`: a lower-case method name and a non-empty identifier. */
const DID_SYNTAX = /^did:([a-z0-9]+):([A-Za-z0-9._%:-]*[A-Za-z0-9._%-])$/;

export const parseDid = (did: string): { method: string; identifier: string } | undefined => {
  const match = DID_SYNTAX.exec(did);
  return match ? { method: match[1]!, identifier: match[2]! } : undefined;
};

/** The host of a VC service as did:web writes it: the port's colon percent-encoded. */
export const didWebHost = (baseUrl: string): string => new URL(baseUrl).host.replace(':', '%3A');

/** MANAGED aliases keep only letters, digits and hyphens. */
export const stripManagedAlias = (alias: string): string => alias.replace(/[^A-Za-z0-9-]/g, '');

/** A SELF_MANAGED alias: a domain (optionally with port) and optional colon-separated path. */
const SELF_MANAGED_ALIAS = /^[A-Za-z0-9.-]+(?:(?::|%3A)\d+)?(?::[A-Za-z0-9._%-]+)*$/i;
export const isSelfManagedAlias = (alias: string): boolean => SELF_MANAGED_ALIAS.test(alias);

/** The alias in the form the VC service takes it: a host port percent-encoded, path colons kept. */
export const encodeAliasPort = (alias: string): string => alias.replace(/^([^:%]+):(\d+)(?=:|$)/, '$1%3A$2');

/** The domain part (with port) of a did:web identifier, decoded, lower-case. */
export const aliasHost = (alias: string): string => decodeURIComponent(encodeAliasPort(alias).split(':')[0]!).toLowerCase();

/** `did:web:d` → https://d/.well-known/did.json; `did:web:d:a:b` → https://d/a/b/did.json. */
export const didWebDocumentUrl = (identifier: string): string => {
  const [domain, ...path] = identifier.split(':').map((part) => decodeURIComponent(part));
  const where = path.length === 0 ? '.well-known' : path.map(encodeURIComponent).join('/');
  return `https://${domain}/${where}/did.json`;
};
