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

const HOST_LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
/**
 * A SELF_MANAGED alias, by the rules the VC service creates did:web identifiers with
 * (vc-service/did-web.ts `didOfAlias`): a host name, optionally a port 1–65535 (`:443` or `%3A443`),
 * then colon-separated path segments of unreserved characters or percent-escapes.
 */
const SELF_MANAGED_ALIAS = new RegExp(`^(${HOST_LABEL}(?:\\.${HOST_LABEL})*)(?:(?::|%3A)(\\d+))?(?::(?:[A-Za-z0-9._-]|%[0-9A-Fa-f]{2})+)*$`, 'i');
export const isSelfManagedAlias = (alias: string): boolean => {
  const match = SELF_MANAGED_ALIAS.exec(alias);
  if (!match || match[1]!.length > 253) return false;
  const port = match[2];
  return port === undefined || (port.length <= 5 && Number(port) >= 1 && Number(port) <= 65535);
};

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
