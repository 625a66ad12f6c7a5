import { generateKeyPairSync, verify } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, SignJWT } from 'jose';
import { joseJwtVerifier, type JwtVerifier } from '../../functions/platform/auth/jwt-verifier.ts';
import { createNodeJwtVerifier } from '../../functions/platform/auth/node-jwt-verifier.ts';
import { OidcDiscovery } from '../../functions/platform/auth/oidc-discovery.ts';
import { ROUNDS } from './lib.ts';
import { recordRatio } from './summary.ts';

/**
 * One RS256 access token checked again and again, in one process, one token after another: the Node
 * web process's verifier (node-jwt-verifier.ts) in full (asking the key set for the key) and at once (the
 * key at hand for the token's header: its hot path), and jose's (the edge's), with the key set the web
 * process uses (OidcDiscovery's remote set, from a minimal local IDP; fetched once), each against the least
 * any check must do, one bare one-shot `crypto.verify` of the same token (its floor), timed in the same
 * round. Rounds alternate the order; the table shows µs per token, the summary each verifier's tokens/s
 * ÷ the floor's. BENCH_TOKENS sets the tokens per timing (default 20,000).
 */
const TOKENS = Number(process.env.BENCH_TOKENS ?? 20_000);
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const keySet = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'bench-1', alg: 'RS256', use: 'sig' }] });
// A minimal IDP over HTTP, so the key set is the web process's own: OidcDiscovery's remote set.
const idp = createServer((request, response) => {
  const base = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
  const body =
    request.url === '/jwks'
      ? keySet
      : JSON.stringify({ issuer: base, jwks_uri: `${base}/jwks`, token_endpoint: `${base}/token`, authorization_endpoint: `${base}/auth` });
  response.writeHead(200, { 'content-type': 'application/json' }).end(body);
});
await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
const { jwks } = await new OidcDiscovery(issuer).endpoints();
const audience = 'credential-support-service';
// About the size of the bench IDP's client-credentials tokens (650–900 characters).
const token = await new SignJWT({ scope: 'openid api', client_id: 'bench-service', jti: 'j'.repeat(40), groups: ['tenant-a'] })
  .setProtectedHeader({ alg: 'RS256', kid: 'bench-1', typ: 'at+jwt' })
  .setIssuer(issuer)
  .setAudience(audience)
  .setSubject('bench-service')
  .setIssuedAt()
  .setExpirationTime('2h')
  .sign(privateKey);
const expected = { issuer, audience };

const bare = async (text: string) => {
  const end = text.lastIndexOf('.');
  if (!verify('sha256', Buffer.from(text.slice(0, end), 'latin1'), publicKey, Buffer.from(text.slice(end + 1), 'base64url'))) {
    throw new Error('Bad signature');
  }
};
const nodeVerifier: JwtVerifier = createNodeJwtVerifier();
const atOnce = nodeVerifier.atOnce!;
const checkedAtOnce = async (text: string) => {
  if (atOnce(text, jwks, expected) === undefined) throw new Error('No key at hand');
};
const contenders: [string, (text: string) => Promise<unknown>][] = [
  ['bare crypto.verify (floor)', bare],
  ['node:crypto verifier (Node web process, full check)', (text) => nodeVerifier(text, jwks, expected)],
  ['node:crypto verifier, key at hand (atOnce: the hot path)', checkedAtOnce],
  ['jose jwtVerify (edge)', (text) => joseJwtVerifier(text, jwks, expected)],
];

/** µs per token over TOKENS tokens. */
const time = async (check: (text: string) => Promise<unknown>) => {
  const started = process.hrtime.bigint();
  for (let i = 0; i < TOKENS; i += 1) await check(token);
  return Number(process.hrtime.bigint() - started) / 1000 / TOKENS;
};

for (const [, check] of contenders.slice(0, 2)) await time(check); // warm-up (the full check puts the key at hand)
for (const [, check] of contenders.slice(2)) await time(check);
const perRound: number[][] = contenders.map(() => []);
for (let round = 0; round < ROUNDS; round += 1) {
  const order = contenders.map((_, i) => i);
  if (round % 2 === 1) order.reverse();
  for (const i of order) perRound[i]!.push(await time(contenders[i]![1]));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log(`\nRS256 token check, ${TOKENS} tokens of ${token.length} characters per timing (${ROUNDS} rounds, order alternating)`);
console.table(
  contenders.map(([name], i) => ({ check: name, 'median µs/token': median(perRound[i]!).toFixed(1), 'per round': perRound[i]!.map((v) => v.toFixed(1)).join(' ') })),
);
for (let i = 1; i < contenders.length; i += 1) {
  const ratios = perRound[i]!.map((micros, round) => perRound[0]![round]! / micros);
  recordRatio({
    measured: contenders[i]![0],
    reference: contenders[0]![0],
    ratio: median(ratios),
    low: Math.min(...ratios),
    high: Math.max(...ratios),
    rounds: ROUNDS,
    detail: `${median(perRound[i]!).toFixed(1)} vs ${median(perRound[0]!).toFixed(1)} µs/token`,
  });
}
idp.close();
