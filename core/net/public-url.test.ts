import { describe, expect, it } from 'vitest';
import { isPublicAddress, publicUrlProblem } from './public-url.ts';

describe('isPublicAddress', () => {
  it.each([
    '0.0.0.0', '10.0.0.1', '100.64.0.1', '127.0.0.1', '169.254.169.254', '172.16.0.1', '172.31.255.255',
    '192.0.0.1', '192.0.2.1', '192.168.1.1', '198.18.0.1', '198.51.100.7', '203.0.113.9', '224.0.0.1',
    '240.0.0.1', '255.255.255.255', '::', '::1', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'ff02::1',
    '2001:db8::1', '::ffff:127.0.0.1', '::ffff:192.168.0.1', '64:ff9b::a00:1', '2002:a00:1::1', '2001::1',
    // IPv6 forms that embed an IPv4 address: compatible, mapped, SIIT, NAT64, 6to4, Teredo
    '::7f00:1', '::127.0.0.1', '::a9fe:a9fe', '::169.254.169.254', '::808:808', '::ffff:7f00:1', '::ffff:a9fe:a9fe',
    '::ffff:0:7f00:1', '64:ff9b::7f00:1', '64:ff9b::808:808', '64:ff9b:1::a9fe:a9fe', '2002:7f00:1::1',
    '2002:808:808::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2',
  ])('%s is not public', (address) => expect(isPublicAddress(address)).toBe(false));

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '2a00:1450:4001::200e', '::ffff:8.8.8.8'])(
    '%s is public',
    (address) => expect(isPublicAddress(address)).toBe(true),
  );
});

describe('publicUrlProblem', () => {
  it('accepts public http(s) URLs', () => {
    expect(publicUrlProblem('https://www.gs1.org/standards?x=1', false)).toBeUndefined();
    expect(publicUrlProblem('http://8.8.8.8:8080/', false)).toBeUndefined();
  });

  it.each([
    ['http://127.1/', 'private or reserved'],
    ['http://2130706433/', 'private or reserved'],
    ['http://0177.0.0.1/', 'private or reserved'],
    ['http://[::]/', 'private or reserved'],
    ['http://[::127.0.0.1]/', 'private or reserved'],
    ['http://[::a9fe:a9fe]/', 'private or reserved'],
    ['http://[::ffff:169.254.169.254]/', 'private or reserved'],
    ['http://[64:ff9b::127.0.0.1]/', 'private or reserved'],
    ['http://[2002:a9fe:a9fe::1]/', 'private or reserved'],
    ['http://LOCALHOST/', 'local host name'],
    ['http://localhost./', 'local host name'],
    ['http://printer.local/', 'local host name'],
    ['http://db.internal/', 'local host name'],
    ['http://nas.home.arpa/', 'local host name'],
    ['https://:secret@example.com/', 'username or password'],
    ['file:///etc/passwd', 'http or https'],
    ['data:text/html,hi', 'http or https'],
    ['example.com', 'absolute'],
  ])('%s → %s', (url, reason) => expect(publicUrlProblem(url, false)).toContain(reason));

  it('allowPrivate lifts the address rules only', () => {
    expect(publicUrlProblem('http://127.0.0.1/', true)).toBeUndefined();
    expect(publicUrlProblem('http://localhost/', true)).toBeUndefined();
    expect(publicUrlProblem('http://u:p@127.0.0.1/', true)).toContain('username');
    expect(publicUrlProblem('gopher://127.0.0.1/', true)).toContain('http or https');
  });
});
