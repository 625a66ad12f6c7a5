import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { npmScripts, npmStartArgs } from './rig/npm-start.ts';

/**
 * The worker's node flags (V8 heap sizes that keep its RSS within budget through large batches) are
 * written in `npm run start:worker` and again in the compose worker's command and the Dockerfile's
 * header; the batch bench and the tests that run the worker program use the npm script's. These
 * must not drift apart.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFile(join(ROOT, file), 'utf8');

const npmStart = async (): Promise<string[]> => npmScripts()['start:worker']!.split(' ');

/** The `command:` of the `worker:` service: the first command line after that service's key. */
const composeCommand = async (): Promise<string[]> => {
  const compose = await read('docker-compose.yml');
  const service = compose.slice(compose.indexOf('\n  worker:\n'));
  const line = /^\s+command:\s*(\[.*\])\s*$/m.exec(service)?.[1];
  if (!line) throw new Error('docker-compose.yml: the worker service has no command line');
  return JSON.parse(line) as string[];
};

describe('the worker start', () => {
  it('gives the heap flags (node, heap sizes, tsx, the worker program)', async () => {
    const args = await npmStart();
    expect(args[0]).toBe('node');
    expect(args.at(-1)).toBe('consumers/worker.ts');
    expect(args.some((arg) => arg.startsWith('--max-old-space-size='))).toBe(true);
    expect(args.some((arg) => arg.startsWith('--max-semi-space-size='))).toBe(true);
  });

  it('is how the tests and the bench start the worker program', async () => {
    expect(npmStartArgs('consumers/worker.ts')).toEqual((await npmStart()).slice(1));
  });

  it('is the same in docker-compose.yml as in npm run start:worker', async () => {
    expect(await composeCommand()).toEqual(await npmStart());
  });

  it('is the one the Dockerfile names', async () => {
    expect(await read('Dockerfile')).toContain(`worker:              ${(await npmStart()).join(' ')}`);
  });
});
