import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { npmScripts, npmStartArgs } from './rig/npm-start.ts';

/**
 * The node flags of the deployed processes (V8 heap sizes that keep their RSS within budget: the worker
 * through large batches, the web process under load, see the README's performance section) are written in
 * the npm script, again in its compiled twin (`start:*:prod`, the program built by `npm run build`), the compose
 * service's command and the Dockerfile. The benches and the tests that run these programs use the npm script's.
 * They must not drift apart.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFile(join(ROOT, file), 'utf8');

/** The `command:` of a compose service: the first command line after that service's key. */
const composeCommand = async (service: string): Promise<string[]> => {
  const compose = await read('docker-compose.yml');
  const from = compose.indexOf(`\n  ${service}:\n`);
  if (from === -1) throw new Error(`docker-compose.yml: no ${service} service`);
  const line = /^\s+command:\s*(\[.*\])\s*$/m.exec(compose.slice(from))?.[1];
  if (!line) throw new Error(`docker-compose.yml: the ${service} service has no command line`);
  return JSON.parse(line) as string[];
};

describe.each([
  { name: 'worker', script: 'start:worker', program: 'consumers/worker.ts', dockerfileLine: 'worker:              ' },
  { name: 'web', script: 'start:web', program: 'functions/server.ts', dockerfileLine: 'web API (default):   ' },
])('the $name start', ({ name, script, program, dockerfileLine }) => {
  const npmStart = (): string[] => npmScripts()[script]!.split(' ');
  const npmStartProd = (): string[] => npmScripts()[`${script}:prod`]!.split(' ');
  const compiled = `dist/app/${program.replace(/\.ts$/, '.js')}`;

  it('gives the heap flags (node, heap sizes, tsx, the program)', () => {
    const args = npmStart();
    expect(args[0]).toBe('node');
    expect(args.at(-1)).toBe(program);
    expect(args.some((arg) => arg.startsWith('--max-old-space-size='))).toBe(true);
    expect(args.some((arg) => arg.startsWith('--max-semi-space-size='))).toBe(true);
  });

  it('is how the tests and the benches start the program', () => {
    expect(npmStartArgs(program)).toEqual(npmStart().slice(1));
  });

  it(`has the same flags in npm run ${script}:prod, which runs the compiled program`, () => {
    const flags = npmStart().filter((arg) => arg.startsWith('--max-'));
    expect(npmStartProd()).toEqual(['node', ...flags, compiled]);
  });

  it(`is the same in docker-compose.yml as in npm run ${script}:prod`, async () => {
    expect(await composeCommand(name)).toEqual(npmStartProd());
  });

  it('is the one the Dockerfile names', async () => {
    const dockerfile = await read('Dockerfile');
    expect(dockerfile).toContain(`${dockerfileLine}${npmStartProd().join(' ')}`);
    if (name === 'web') expect(dockerfile).toContain(`CMD ${JSON.stringify(npmStartProd()).replaceAll('","', '", "')}`);
  });
});
