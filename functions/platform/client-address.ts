import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import ipaddr from 'ipaddr.js';

/**
 * The key a per-client limit counts under, from a peer address: IPv4-mapped IPv6 is its IPv4; other
 * IPv6 addresses count per /64, the block one subscriber usually holds; no usable address shares one key.
 */
export const clientKeyOf = (address: string | undefined): string => {
  if (!address || !ipaddr.isValid(address)) return 'unknown';
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
};

/**
 * Who is calling, for per-client limits: the socket's peer address. There is no trusted-proxy setting,
 * so forwarded headers, which any client can write, are never read on Node. An edge function has no
 * socket: there the address is Cloudflare's `CF-Connecting-IP`, which Cloudflare itself sets on every
 * request reaching a worker (a client's own value is replaced). Without either, callers share one key.
 */
export const clientAddress = (c: Context): string => {
  try {
    return clientKeyOf(getConnInfo(c).remote.address);
  } catch {
    return clientKeyOf(c.req.header('cf-connecting-ip'));
  }
};
