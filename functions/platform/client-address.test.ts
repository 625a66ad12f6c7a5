import { describe, expect, it } from 'vitest';
import { clientKeyOf } from './client-address.ts';

describe('clientKeyOf', () => {
  it('IPv4 as is, IPv4-mapped IPv6 as its IPv4, IPv6 per /64, anything else one shared key', () => {
    expect(clientKeyOf('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKeyOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKeyOf('2001:db8:1:2:aaaa::1')).toBe(clientKeyOf('2001:db8:1:2:bbbb::9'));
    expect(clientKeyOf('2001:db8:1:2::1')).not.toBe(clientKeyOf('2001:db8:1:3::1'));
    expect(clientKeyOf(undefined)).toBe('unknown');
    expect(clientKeyOf('not an address')).toBe('unknown');
  });
});
