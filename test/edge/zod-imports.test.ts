import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every source file (not tests) of what is bundled for the edge and the Node processes. */
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return sources(path);
    return d.name.endsWith('.ts') && !d.name.endsWith('.test.ts') ? [path] : [];
  });

/**
 * esbuild shakes zod only where a file imports it as its own namespace (`import * as z from 'zod'`): a `z`
 * imported by name (`import { z } from 'zod'` or from `@hono/zod-openapi`, which re-exports it) is a namespace
 * value, and keeps all of zod (~110 KB minified) in every edge bundle. On the edge, `@hono/zod-openapi`'s own
 * `z` is only `{ ZodType }` (scripts/edge-bundle.ts), so a `z` imported from it would not even work there.
 */
describe('zod imports', () => {
  it('import zod as a namespace, never `z` by name', () => {
    const named = /import\s*\{[^}]*\bz\b[^}]*\}\s*from\s*'(zod|@hono\/zod-openapi)'/;
    const offenders = ['functions', 'core', 'db', 'storage-service'].flatMap(sources).filter((file) => named.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('import @hono/zod-openapi (for a value, or bare) wherever schemas call .openapi(), so zod is extended first', () => {
    /** A value import of the package: bare, or naming at least one binding that is not a type. */
    const installsExtension = (source: string) =>
      [...source.matchAll(/^import\s+(?!type\s)(?:\{([^}]*)\}\s*from\s*)?'@hono\/zod-openapi';/gm)].some(
        ([, names]) => names === undefined || names.split(',').some((n) => n.trim() !== '' && !n.trim().startsWith('type ')),
      );
    const missing = ['functions', 'core', 'db', 'storage-service']
      .flatMap(sources)
      .filter((file) => {
        const source = readFileSync(file, 'utf8');
        return source.includes('.openapi(') && !installsExtension(source);
      });
    expect(missing).toEqual([]);
  });
});
