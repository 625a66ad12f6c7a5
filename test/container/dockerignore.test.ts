import { describe, expect, it } from 'vitest';
import { dockerContext } from './dockerignore.ts';

describe('the .dockerignore reading of the container tests', () => {
  const context = dockerContext(['*', '', '!package.json', '!functions/', '!scripts/build.ts', '# note', '**/node_modules', '**/*.test.ts', '**/.env.*'].join('\n'));

  it('admits allow-listed files and folders, nothing else', () => {
    expect(context.includes('package.json')).toBe(true);
    expect(context.includes('functions/server.ts')).toBe(true);
    expect(context.includes('functions/deep/er/file.json')).toBe(true);
    expect(context.includes('scripts/build.ts')).toBe(true);
    expect(context.includes('scripts/dev-edge.ts')).toBe(false);
    expect(context.includes('vc-service/server.ts')).toBe(false);
    expect(context.includes('README.md')).toBe(false);
  });

  it('lets later exclusions win inside admitted folders', () => {
    expect(context.includes('functions/node_modules/x/index.js')).toBe(false);
    expect(context.includes('functions/registrars/create.test.ts')).toBe(false);
    expect(context.includes('functions/.env.local')).toBe(false);
    expect(context.includes('functions/environment.ts')).toBe(true);
  });
});
