/**
 * The address table every outbound guard is tested with: the main API's guarded fetch
 * (`core/net/public-url.test.ts`) and the VC service's did:web fetch (`vc-service/test/remote-dids.test.ts`).
 */
export const NOT_PUBLIC_ADDRESSES = [
  '0.0.0.0', '10.0.0.1', '100.64.0.1', '127.0.0.1', '169.254.169.254', '172.16.0.1', '172.31.255.255',
  '192.0.0.1', '192.0.2.1', '192.168.1.1', '198.18.0.1', '198.51.100.7', '203.0.113.9', '224.0.0.1',
  '240.0.0.1', '255.255.255.255', '::', '::1', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'ff02::1',
  '2001:db8::1', '::ffff:127.0.0.1', '::ffff:192.168.0.1', '64:ff9b::a00:1', '2002:a00:1::1', '2001::1',
  // IPv6 forms that embed an IPv4 address: compatible, mapped, SIIT, NAT64, 6to4, Teredo
  '::7f00:1', '::127.0.0.1', '::a9fe:a9fe', '::169.254.169.254', '::808:808', '::ffff:7f00:1', '::ffff:a9fe:a9fe',
  '::ffff:0:7f00:1', '64:ff9b::7f00:1', '64:ff9b::808:808', '64:ff9b:1::a9fe:a9fe', '2002:7f00:1::1',
  '2002:808:808::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2',
];

export const PUBLIC_ADDRESSES = ['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '2a00:1450:4001::200e', '::ffff:8.8.8.8'];
