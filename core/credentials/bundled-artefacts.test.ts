import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARTEFACT_MANIFEST, createBundledArtefacts, findBundledArtefact, readArtefactFromDisk } from './bundled-artefacts.ts';

const FOLDER = join(import.meta.dirname, 'artefacts');
const dataFiles = readdirSync(FOLDER, { recursive: true, encoding: 'utf8' })
  .filter((f) => /\.(json|jsonld)$/.test(f) && f !== 'manifest.json')
  .sort();

describe('bundled artefacts manifest', () => {
  it.each(ARTEFACT_MANIFEST.map((e) => [e.file, e.sha256]))('%s has the SHA-256 the manifest records', (file, sha256) => {
    expect(createHash('sha256').update(readFileSync(join(FOLDER, file))).digest('hex')).toBe(sha256);
  });

  it('lists every data file once, and no URL twice', () => {
    expect(ARTEFACT_MANIFEST.map((e) => e.file).sort()).toEqual(dataFiles);
    const urls = ARTEFACT_MANIFEST.flatMap((e) => e.urls);
    expect(new Set(urls).size).toBe(urls.length);
  });

  it('bundles the UNTP 0.6.0, 0.6.1 and 0.7.0 schemas and contexts and the W3C VC 2.0 context', () => {
    for (const code of ['dpp', 'dcc', 'dfr', 'dia', 'dte']) {
      for (const version of ['0.6.0', '0.6.1']) {
        expect(findBundledArtefact(`https://test.uncefact.org/vocabulary/untp/${code}/untp-${code}-schema-${version}.json`)).toBeDefined();
        expect(findBundledArtefact(`https://test.uncefact.org/vocabulary/untp/${code}/${version}/context/`)).toBeDefined();
      }
    }
    expect(findBundledArtefact('https://untp.unece.org/artefacts/schema/v0.7.0/dcc/ConformityCredential.json')?.file).toBe('0.7.0/schema/dcc/ConformityCredential.json');
    expect(findBundledArtefact('https://vocabulary.uncefact.org/untp/0.7.0/context/')?.file).toBe('0.7.0/context/context.jsonld');
    expect(findBundledArtefact('https://www.w3.org/ns/credentials/v2')?.file).toBe('w3c/credentials-v2.jsonld');
  });
});

describe('finding a bundled copy by the URL a credential cites', () => {
  it.each([
    ['https://test.uncefact.org/vocabulary/untp/dpp/0.6.1/', '0.6.1/context/dpp/context.jsonld'],
    ['https://test.uncefact.org/vocabulary/untp/dpp/0.6.1', '0.6.1/context/dpp/context.jsonld'],
    ['https://test.uncefact.org/vocabulary/untp/dpp/0.6.1/context', '0.6.1/context/dpp/context.jsonld'],
    ['https://vocabulary.uncefact.org/untp/0.7.0/context', '0.7.0/context/context.jsonld'],
    ['https://www.w3.org/ns/credentials/v2/', 'w3c/credentials-v2.jsonld'],
    ['https://www.w3.org/ns/credentials/v2#section', 'w3c/credentials-v2.jsonld'],
  ])('%s → %s', (url, file) => {
    expect(findBundledArtefact(url)?.file).toBe(file);
  });

  it.each([
    'https://www.w3.org/ns/credentials/v1',
    'http://www.w3.org/ns/credentials/v2',
    'https://vocabulary.uncefact.org/untp/0.8.0/context/',
    'https://example.com/untp/0.7.0/context/',
  ])('has no copy of %s', (url) => {
    expect(findBundledArtefact(url)).toBeUndefined();
    expect(createBundledArtefacts().lookup(url)).toBeUndefined();
  });
});

describe('loading a bundled copy', () => {
  it('parses the file and reads it once', async () => {
    const reads: string[] = [];
    const bundled = createBundledArtefacts(async (file) => {
      reads.push(file);
      return readArtefactFromDisk(file);
    });
    const first = await bundled.lookup('https://vocabulary.uncefact.org/untp/0.7.0/context/');
    const again = await bundled.lookup('https://vocabulary.uncefact.org/untp/0.7.0/context');
    expect(first).toHaveProperty('@context');
    expect(again).toBe(first);
    expect(reads).toEqual(['0.7.0/context/context.jsonld']);
  });

  it('refuses a file whose bytes no longer match the manifest', async () => {
    const bundled = createBundledArtefacts(async (file) => {
      const bytes = await readArtefactFromDisk(file);
      return new Uint8Array([...bytes, 0x0a]);
    });
    await expect(bundled.lookup('https://www.w3.org/ns/credentials/v2')).rejects.toThrow(/does not match its manifest hash/);
  });
});
