import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const text = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');

describe('CONTRIBUTING.md', () => {
  it('links only to files of this repository, and they exist', () => {
    const targets = [...text.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!);
    expect(targets.length).toBeGreaterThan(10);
    expect(targets.filter((t) => t.startsWith('/') || t.startsWith('..') || /^[a-z]+:/.test(t))).toEqual([]);
    expect(targets.filter((t) => !existsSync(join(ROOT, t)))).toEqual([]);
    expect(text).not.toMatch(/\/work\/|\.\.\/shared/);
  });

  it('explains how to add a queue consumer and a CLI command', () => {
    expect(text).toContain('## Add a queue consumer');
    expect(text).toContain('## Add a CLI command');
  });
});
