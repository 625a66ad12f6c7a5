import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The npm scripts of package.json. */
export const npmScripts = (): Record<string, string> =>
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/**
 * The node arguments (flags, then the program) of the npm script that starts `script` with node
 * (`start:worker` for consumers/worker.ts, with its heap flags); plain `--import tsx` when no script does.
 */
export const npmStartArgs = (script: string): string[] => {
  for (const command of Object.values(npmScripts())) {
    const [program, ...args] = command.split(' ');
    if (program === 'node' && args.at(-1) === script) return args;
  }
  return ['--import', 'tsx', script];
};
