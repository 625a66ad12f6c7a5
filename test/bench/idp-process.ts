import { startLocalIdp, type LocalIdpOptions } from '../../scripts/local-idp.ts';

/**
 * The local OIDC provider as its own process for benches. oidc-provider keeps an AsyncLocalStorage,
 * which in Node 22 turns on promise hooks for every promise of the process it lives in; a deployed web
 * process has its identity provider elsewhere, so the bench keeps it out of the servers' process.
 * Reads its options as JSON from stdin, prints `{"issuer": …}` on stdout, and runs until SIGTERM.
 */
const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const idp = await startLocalIdp(JSON.parse(Buffer.concat(chunks).toString('utf8')) as LocalIdpOptions);
process.stdout.write(`${JSON.stringify({ issuer: idp.issuer })}\n`);
process.once('SIGTERM', () => {
  void idp.close().then(() => process.exit(0));
});
