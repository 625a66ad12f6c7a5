import ipaddr from 'ipaddr.js';
import { badRequest } from '../errors.ts';

/** Special-use names (RFC 6761, 6762, 8375) that never name a public host. */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|home\.arpa|localdomain)\.?$/i;

/**
 * IPv6 ranges that carry an IPv4 address inside them. IPv4-mapped (::ffff:0:0/96) is judged as its
 * IPv4; the others are refused outright: IPv4-compatible (::/96, deprecated by RFC 4291, `::7f00:1` is
 * 127.0.0.1 to some stacks), SIIT (::ffff:0:0:0/96), NAT64 (64:ff9b::/96, 64:ff9b:1::/48), 6to4
 * (2002::/16) and Teredo (2001::/32) all reach an IPv4 host through a translator we cannot see.
 */
const IPV4_EMBEDDING_RANGES = ['::/96', '::ffff:0:0:0/96', '64:ff9b::/96', '64:ff9b:1::/48', '2002::/16', '2001::/32']
  .map((cidr) => ipaddr.IPv6.parseCIDR(cidr));

/** True when an IP literal is globally routable unicast (IPv4-mapped IPv6 judged as its IPv4). */
export const isPublicAddress = (address: string): boolean => {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === 'unicast';
  if (IPV4_EMBEDDING_RANGES.some((range) => v6.match(range))) return false;
  return v6.range() === 'unicast';
};

/**
 * Why a URL is not an acceptable outbound target, or undefined when it is: absolute http(s),
 * no userinfo, and (unless private URLs are allowed) no special-purpose IP literal or local name.
 * DNS answers are checked again at fetch time by the guarded fetcher.
 */
export const publicUrlProblem = (raw: string, allowPrivate: boolean): string | undefined => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must use http or https';
  if (url.username || url.password) return 'must not contain a username or password';
  if (allowPrivate) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) {
    return isPublicAddress(host) ? undefined : 'must not point to a private or reserved address';
  }
  if (LOCAL_NAME.test(host)) return 'must not point to a local host name';
  return undefined;
};

/** Throws a 400 naming the field when the URL is not an acceptable public http(s) URL. */
export const assertPublicUrl = (field: string, raw: string, allowPrivate: boolean): void => {
  const problem = publicUrlProblem(raw, allowPrivate);
  if (problem) throw badRequest(`${field}: ${problem}`);
};
