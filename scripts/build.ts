import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `npm run build`: the production processes as JavaScript in dist/app/, the layout of the sources (so every
 * module finds its files beside it: migrations, bundled UNTP artefacts, page assets, seed files). TypeScript
 * compiles the modules (tsconfig.build.json: `.ts` imports rewritten to `.js`), then every other file of the
 * production folders is copied, tests and test fixtures left out. The image (Dockerfile) runs only this output,
 * with `npm run start:*:prod`: no TypeScript is transpiled when a process starts.
 */
export const OUT_DIR = join('dist', 'app');
export const PRODUCTION_FOLDERS = ['functions', 'consumers', 'core', 'db', 'cli', 'storage-service', 'vc-service'];

/** Test code and fixtures: never part of the build. */
export const isTestPath = (path: string) => /(^|\/)(test|test-support|__fixtures__)(\/|$)|\.test\.|\.test-setup\.|\.bench\./.test(path);

const assets = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (isTestPath(path)) return [];
    if (statSync(path).isDirectory()) return assets(path);
    return path.endsWith('.ts') || name === 'README.md' ? [] : [path];
  });

/** The files besides modules that the build copies (the processes read them at run time). */
export const productionAssets = () => PRODUCTION_FOLDERS.flatMap(assets);

if (import.meta.url === `file://${process.argv[1]}`) {
  rmSync(OUT_DIR, { recursive: true, force: true });
  execFileSync(process.execPath, [join('node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
  const copied = productionAssets();
  for (const file of copied) cpSync(file, join(OUT_DIR, file));
  console.log(`${OUT_DIR}: compiled modules and ${copied.length} other files`);
}
