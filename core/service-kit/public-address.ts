import ipaddr from 'ipaddr.js';

/*
 * The one rule for which IP addresses outbound calls may reach, shared by the main API's guarded
 * fetch (`core/net/`) and the VC service's did:web fetch: a service-kit leaf so both use this code.
 */

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
