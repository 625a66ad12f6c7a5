import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildApiDocument, operationsOf } from './api-document.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The few route files whose name alone would not give a unique or meaningful id. A new route whose file name
 * is already taken by another group fails the uniqueness check below until it is given its own id here.
 */
const NAMED_OTHERWISE: Record<string, string> = {
  'functions/cvc/list-schemes.ts': 'listConformitySchemes', // schemes/list-schemes.ts is listSchemes
  'functions/health/index.ts': 'getHealth',
};

/** functions/registrars/create-registrar.ts → createRegistrar. */
const expectedOperationId = (file: string) =>
  NAMED_OTHERWISE[file] ?? basename(file, '.ts').replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** Every source file under functions/ that defines an operation (createRoute), with its text. */
const routeFiles = async () => {
  const entries = await readdir(join(ROOT, 'functions'), { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)).split('\\').join('/'));
  const texts = await Promise.all(files.map(async (path) => ({ path, text: await readFile(join(ROOT, path), 'utf8') })));
  return texts.filter((f) => /\bcreateRoute\(/.test(f.text));
};

const declaredIds = (text: string) => [...text.matchAll(/\boperationId:\s*['"]([^'"]*)['"]/g)].map((m) => m[1]);

describe('operationId', () => {
  it('every route file declares one operation with the id its file name gives', async () => {
    const files = await routeFiles();
    expect(files.length).toBeGreaterThan(80);
    const wrong = files.flatMap(({ path, text }) => {
      const operations = text.match(/\bcreateRoute\(/g)!.length;
      const ids = declaredIds(text);
      const want = expectedOperationId(path);
      if (operations !== 1) return [`${path}: ${operations} operations in one file`];
      if (ids.length !== 1) return [`${path}: ${ids.length} operationId lines, want one: '${want}'`];
      return ids[0] === want ? [] : [`${path}: operationId '${ids[0]}', want '${want}'`];
    });
    expect(wrong).toEqual([]);
  });

  it('every operation of the document has an id, camelCase and unique, and the ids are exactly those of the route files', async () => {
    const operations = operationsOf(buildApiDocument());
    const missing = operations.filter((o) => !o.operation.operationId).map((o) => `${o.method.toUpperCase()} ${o.path}`);
    expect(missing).toEqual([]);
    const ids = operations.map((o) => o.operation.operationId!);
    expect(ids.filter((id) => !/^[a-z][a-zA-Z0-9]*$/.test(id))).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    const fromFiles = (await routeFiles()).flatMap(({ text }) => declaredIds(text));
    expect(fromFiles.filter((id, i) => fromFiles.indexOf(id) !== i)).toEqual([]);
    expect([...ids].sort()).toEqual([...fromFiles].sort());
  });
});
