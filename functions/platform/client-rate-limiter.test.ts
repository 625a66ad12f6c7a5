import { describe, expect, it } from 'vitest';
import { clientKeyOf } from './client-address.ts';
import { ClientRateLimiter } from './client-rate-limiter.ts';

describe('ClientRateLimiter (a clock the test moves)', () => {
  it('a burst of a minute’s allowance passes, the next request waits for one refill; clients are counted apart', () => {
    let now = 1_000_000;
    const limiter = new ClientRateLimiter(60, () => now);
    for (let i = 0; i < 60; i++) expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBe(1);
    expect(limiter.take('b')).toBe(0);
    now += 1000;
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBe(1);
  });

  it('Retry-After is the whole seconds until one request is allowed, and a steady client at the limit is never refused', () => {
    let now = 0;
    const limiter = new ClientRateLimiter(2, () => now);
    expect([limiter.take('c'), limiter.take('c')]).toEqual([0, 0]);
    expect(limiter.take('c')).toBe(30);
    now += 29_000;
    expect(limiter.take('c')).toBe(1);
    now += 1_000;
    expect(limiter.take('c')).toBe(0);
    for (let i = 0; i < 10; i++) {
      now += 30_000;
      expect(limiter.take('c')).toBe(0);
    }
  });

  it('an idle client gets back no more than a minute’s allowance', () => {
    let now = 0;
    const limiter = new ClientRateLimiter(3, () => now);
    now += 3_600_000;
    expect([limiter.take('d'), limiter.take('d'), limiter.take('d')]).toEqual([0, 0, 0]);
    expect(limiter.take('d')).toBeGreaterThan(0);
  });
});

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
