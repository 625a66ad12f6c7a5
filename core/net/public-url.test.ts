import { describe, expect, it } from 'vitest';
import { NOT_PUBLIC_ADDRESSES, PUBLIC_ADDRESSES } from '../../test/rig/address-table.ts';
import { isPublicAddress, publicUrlProblem } from './public-url.ts';

describe('isPublicAddress', () => {
  it.each(NOT_PUBLIC_ADDRESSES)('%s is not public', (address) => expect(isPublicAddress(address)).toBe(false));

  it.each(PUBLIC_ADDRESSES)(
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
