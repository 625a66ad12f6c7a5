import { readFileSync } from 'node:fs';

/**
 * wrangler.toml's top-level build step: wrangler runs it only when no `--env` is given (every environment has a
 * build step of its own), and a failed build stops `wrangler deploy` and `wrangler dev`. Without an environment
 * there is nothing right to deploy (no routes, no bindings, no settings), so it refuses, naming the environments.
 */
const environments = [...readFileSync('wrangler.toml', 'utf8').matchAll(/^\[env\.([a-z0-9-]+)\]$/gm)].map((m) => m[1]!);
console.error(
  [
    'wrangler.toml deploys one worker per environment; name one with --env:',
    `  ${environments.join(', ')}`,
    '  e.g. npx wrangler deploy --env registrars   (README "Edge deployment" deploys them all)',
  ].join('\n'),
);
process.exit(1);
