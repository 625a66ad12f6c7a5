import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../cli/main.ts';
import { npmScripts } from '../rig/npm-start.ts';

/**
 * The README's Operations section names only what exists: every operator command and npm script it tells an
 * operator to run, every setting and metric series it names, every log line it promises. (What each does is
 * tested where it is built; this keeps the section followable as the code moves.)
 */
const readme = readFileSync('README.md', 'utf8');
const start = readme.indexOf('\n## Operations\n');
const section = readme.slice(start, readme.indexOf('\n## ', start + 1));

/** The product's and services' own source (no tests), where settings are read, series declared and lines logged. */
const source = ['core', 'functions', 'consumers', 'cli', 'vc-service', 'storage-service', 'scripts']
  .flatMap((dir) => (readdirSync(dir, { recursive: true }) as string[]).map((file) => join(dir, file)))
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.includes('/test/'))
  .map((file) => readFileSync(file, 'utf8'))
  .join('\n');
const quoted = (text: string) => source.includes(`'${text}'`) || source.includes(`"${text}"`) || source.includes(`\`${text}\``);
const all = (pattern: RegExp) => [...new Set([...section.matchAll(pattern)].map((match) => match[1]!))];

describe("README's Operations section", () => {
  it('exists and names the operator commands and npm scripts that there are', () => {
    expect(start).toBeGreaterThan(0);
    const commands = all(/css-operator ([a-z-]+)/g);
    expect(commands).toEqual(expect.arrayContaining(['rotate-encryption-key', 'audit-encryption', 'rotate-did-key']));
    const known = COMMANDS.map((command) => command.name);
    expect(commands.filter((name) => !known.includes(name))).toEqual([]);
    const scripts = all(/npm run ([a-z:-]+)/g);
    expect(scripts).toEqual(expect.arrayContaining(['vc:rotate-key-encryption-key', 'bench']));
    expect(scripts.filter((name) => !(name in npmScripts()))).toEqual([]);
  });

  it('names settings the processes read and metric series they declare', () => {
    const settings = all(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`/g);
    expect(settings).toEqual(expect.arrayContaining(['OTEL_EXPORTER_OTLP_ENDPOINT', 'METRICS_BEARER_TOKEN', 'DATA_ENCRYPTION_KEY_PREVIOUS', 'KEY_ENCRYPTION_KEY_PREVIOUS']));
    expect(settings.filter((name) => !quoted(name) && !source.includes(`.${name}`))).toEqual([]);
    const series = all(/`((?:css|http)_[a-z_]+)[{`]/g);
    expect(series.length).toBeGreaterThan(5);
    expect(series.filter((name) => !quoted(name))).toEqual([]);
  });

  it('promises log lines the code writes', () => {
    const logs = section.slice(section.indexOf('**Logs.**'), section.indexOf('\n\n', section.indexOf('**Logs.**')));
    const messages = [...logs.matchAll(/`([A-Z][a-z]+(?: [a-zA-Z]+)+)`/g)].map((match) => match[1]!);
    expect(messages).toEqual(expect.arrayContaining(['Credential issued', 'Credential status changed', 'Batch settled', 'Credential not verified']));
    expect(messages.filter((message) => !quoted(message))).toEqual([]);
  });
});
