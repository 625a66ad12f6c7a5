import { describe, expect, it } from 'vitest';
import { GuardedFetchError, type Fetcher } from '../net/fetcher.ts';
import type { DocumentSettings } from '../settings/document-settings.ts';
import { createBundledArtefacts } from './bundled-artefacts.ts';
import { createDocumentSource } from './document-source.ts';
import { createJsonLdExpansion } from './jsonld-expansion.ts';
import { createJsonLdCheck } from './jsonld-verdict-cache.ts';
import { documentSettings, readSample, sampleFiles } from './test-support/offline.ts';
import { clone, mutate, random, type Json } from './test-support/payload-mutations.ts';

const DPP_SAMPLE_070 = '0.7.0-prerelease/dpp/DigitalProductPassport_instance.json';
/** Mutants are judged by full expansions (about 20 ms each): three samples, two data model versions. */
const MUTATED_SAMPLES = [DPP_SAMPLE_070, '0.7.0-prerelease/dcc/ConformityCredential_instance.json', '0.6.1/untp-dpp-instance-0.6.1.json'];

/** A tenant's own context host (the published hosts stay offline): terms that alias `@id` through another term. */
const ALIAS_CONTEXT = 'https://contexts.example.com/aliases/';
const aliasHost: Fetcher = async (url) => {
  if (url !== ALIAS_CONTEXT) throw new GuardedFetchError('network', `Could not resolve ${new URL(url).hostname}`);
  return new Response(JSON.stringify({ '@context': { subjectRef: { '@id': 'id' }, otherRef: 'id' } }));
};

/** A check over the bundled documents (and the alias host) that counts the expansions it really runs. */
const countingCheck = (settings: DocumentSettings = documentSettings()) => {
  const documents = createDocumentSource(aliasHost, settings, createBundledArtefacts());
  const expand = createJsonLdExpansion(documents, settings);
  let expansions = 0;
  const check = createJsonLdCheck(documents, settings, (payload) => ((expansions += 1), expand(payload)));
  return { check, expansions: () => expansions };
};

/** The judge: a full safe-mode expansion that remembers nothing of earlier payloads. */
const judge = createJsonLdExpansion(createDocumentSource(aliasHost, documentSettings(), createBundledArtefacts()), documentSettings());
const outcome = (run: Promise<unknown>) =>
  run.then(
    () => 'accepted',
    (error: Error & { code?: string }) => `${error.code ?? error.name}: ${error.message}`,
  );

/** The same mutant with every plain string and number changed: the variant a cache would be tempted to accept. */
const retouch = (value: Json, key = ''): Json => {
  if (Array.isArray(value)) return value.map((item) => retouch(item, key));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, retouch(v, k)]));
  if (key.startsWith('@') || key === 'id' || key === 'type') return value;
  if (typeof value === 'string') return `${value} (changed)`;
  return typeof value === 'number' ? value + 1 : value;
};

/** Free-text and code members of UNTP 0.7.0 (plain literals in its context), as another product would fill them. */
const TEXT_MEMBERS = new Set(['name', 'description', 'registeredId', 'batchNumber', 'modelNumber', 'countryName', 'linkName', 'definition', 'code', 'schemeName', 'productionDate']);

/** Another product's data in the same structure: other texts, numbers and https ids; types, codes lists and contexts kept. */
const anotherProduct = (value: Json, key = ''): Json => {
  if (Array.isArray(value)) return value.map((item) => anotherProduct(item, key));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, anotherProduct(v, k)]));
  if (typeof value === 'number') return value * 3 + 1;
  if (typeof value !== 'string') return value;
  if (key === 'id' && value.startsWith('https://')) return `https://other.example.com/${value.length}`;
  return TEXT_MEMBERS.has(key) ? `${value}, another` : value;
};

describe('the JSON-LD check remembers accepted shapes and agrees with a full expansion', () => {
  it.each(sampleFiles())('%s: the same verdict as a full expansion, first and second time', async (file) => {
    const { check } = countingCheck();
    const expected = await outcome(judge(readSample(file)));
    expect(await outcome(check(readSample(file)))).toBe(expected);
    expect(await outcome(check(readSample(file)))).toBe(expected);
  });

  it('accepts a payload of an accepted shape without expanding it again (other names, dates, numbers, other absolute ids)', async () => {
    const { check, expansions } = countingCheck();
    await check(readSample(DPP_SAMPLE_070));
    expect(expansions()).toBe(1);
    const other = anotherProduct(readSample(DPP_SAMPLE_070) as Json) as Record<string, Json>;
    (other.issuer as Record<string, Json>).id = 'did:web:other.example.com';
    expect(JSON.stringify(other)).not.toContain('Copper Concentrate (Cu 30%)"');
    await check(other);
    expect(expansions()).toBe(1);
    expect(await outcome(judge(other))).toBe('accepted');
  });

  it('expands again when anything a verdict depends on differs: a type, an id class, a member name, an inline context', async () => {
    const { check, expansions } = countingCheck();
    await check(readSample(DPP_SAMPLE_070));
    const variants: [string, (p: Record<string, Json>) => void][] = [
      ['another type', (p) => ((p.credentialSubject as Record<string, Json>).type = ['UnknownType'])],
      ['a relative id', (p) => (p.id = 'relative-ref')],
      ['a keyword-like id', (p) => (p.id = '@foo')],
      ['a blank-node id', (p) => (p.id = '_:b0')],
      ['an undefined member', (p) => ((p.credentialSubject as Record<string, Json>).unknownTerm = 'x')],
      ['an inline context', (p) => (p['@context'] = [...(p['@context'] as Json[]), { extra: 'https://example.com/extra' }])],
    ];
    for (const [label, change] of variants) {
      const payload = readSample(DPP_SAMPLE_070) as Record<string, Json>;
      change(payload);
      const before = expansions();
      const verdict = await outcome(check(payload));
      expect(expansions(), label).toBe(before + 1);
      expect(verdict, label).toBe(await outcome(judge(payload)));
    }
  });

  it('a term that aliases @id through another term (`"subjectRef": {"@id": "id"}`) keeps its values: a relative one is refused after an absolute one passed', async () => {
    const { check } = countingCheck();
    const sample = readSample(DPP_SAMPLE_070) as Record<string, Json>;
    const { id: _id, ...subject } = sample.credentialSubject as Record<string, Json>;
    for (const member of ['subjectRef', 'otherRef']) {
      const referring = (value: string) => ({ ...sample, '@context': [...(sample['@context'] as Json[]), ALIAS_CONTEXT], credentialSubject: { ...subject, [member]: value } });
      expect(await outcome(check(referring('https://id.example.com/product/1'))), member).toBe('accepted');
      const relative = await outcome(check(referring('relative-ref')));
      expect(relative, member).toMatch(new RegExp(`^JSONLD_DOCUMENT_INVALID: credentialPayload/credentialSubject/${member}: "relative-ref" is neither an absolute IRI`));
      expect(relative).toBe(await outcome(judge(referring('relative-ref'))));
    }
  });

  it('never remembers a refusal: the same refused payload is expanded and refused alike every time', async () => {
    const { check, expansions } = countingCheck();
    const payload = readSample(DPP_SAMPLE_070) as Record<string, Json>;
    (payload.credentialSubject as Record<string, Json>).id = 'relative-ref';
    const first = await outcome(check(payload));
    expect(first).toMatch(/^JSONLD_DOCUMENT_INVALID: credentialPayload\/credentialSubject\/id: /);
    expect(await outcome(check(payload))).toBe(first);
    expect(expansions()).toBe(2);
  });

  it('remembers nothing when contexts are not kept (CONTEXT_CACHE_TTL_MS=0)', async () => {
    const { check, expansions } = countingCheck(documentSettings({ contextCacheTtlMs: 0 }));
    await check(readSample(DPP_SAMPLE_070));
    await check(readSample(DPP_SAMPLE_070));
    expect(expansions()).toBe(2);
  });

  it.each(MUTATED_SAMPLES)('%s: 60 mutants (and their retouched twins) get the verdict of a full expansion', async (file) => {
    const { check } = countingCheck();
    const original = readSample(file) as Json;
    await check(clone(original) as object);
    const next = random(file.length * 7919);
    for (let i = 0; i < 60; i += 1) {
      const mutant = mutate(original, next);
      for (const payload of [mutant, retouch(mutant)]) {
        const expected = await outcome(judge(clone(payload)));
        expect(await outcome(check(clone(payload))), `mutant ${i} of ${file}: ${JSON.stringify(payload).slice(0, 200)}`).toBe(expected);
      }
    }
  }, 120_000);
});
