import { createRequire } from 'node:module';
import jsonldUtil from 'jsonld/lib/util.js';
import { afterAll, describe, expect, it } from 'vitest';
import { GuardedFetchError, type Fetcher } from '../net/fetcher.ts';
import { createBundledArtefacts } from './bundled-artefacts.ts';
import { createDocumentSource } from './document-source.ts';
import { createJsonLdExpansion, type JsonLdEngine } from './jsonld-expansion.ts';
import { createPayloadChecks } from './payload-validation.ts';
import { documentSettings, readSample, sampleFiles } from './test-support/offline.ts';
import { clone, mutate, random, type Json } from './test-support/payload-mutations.ts';

/*
 * The expansion as issuance runs it (jsonld-context-cache.ts: processed contexts found by content and kept
 * across requests, plus the shape cache of jsonld-verdict-cache.ts) against the expansion as it was before
 * (a separate, freshly loaded copy of jsonld.js with only the shallow Map clone, and nothing kept between
 * payloads): the same verdict, the same error code, message and pointer, and for accepted payloads the same
 * expanded document, on every bundled sample, the invalid payloads of the other tests and generated mutants.
 * Issuance's side is one long-lived instance, so every case runs on what all the earlier ones left cached.
 */

/** A second jsonld.js, loaded outside the module cache the product uses, so none of our patches reach it. */
const pristineJsonLd = () => {
  const require = createRequire(import.meta.url);
  const ours = Object.keys(require.cache).filter((key) => key.includes('/node_modules/jsonld/'));
  const saved = new Map(ours.map((key) => [key, require.cache[key]]));
  for (const key of ours) delete require.cache[key];
  try {
    const jsonld = require('jsonld') as { expand: JsonLdEngine['expand'] };
    const util = require('jsonld/lib/util.js') as { clone: (value: unknown) => unknown };
    const ContextResolver = require('jsonld/lib/ContextResolver.js') as new (options: { sharedCache: unknown }) => unknown;
    const ResolvedContext = require('jsonld/lib/ResolvedContext.js') as { prototype: object };
    return { jsonld, util, ContextResolver, ResolvedContext };
  } finally {
    for (const key of Object.keys(require.cache)) if (key.includes('/node_modules/jsonld/')) delete require.cache[key];
    for (const [key, module] of saved) require.cache[key] = module;
  }
};

const pristine = pristineJsonLd();
// The one change the old expansion had (term definitions copied shallowly; see jsonld-context-cache.ts).
const deepClone = pristine.util.clone;
pristine.util.clone = (value: unknown) => (value instanceof Map ? new Map(value) : deepClone(value));
const oldEngine: JsonLdEngine = { expand: pristine.jsonld.expand, contextResolver: (shared) => new pristine.ContextResolver({ sharedCache: shared }) };

/** A tenant's own context host (the published hosts stay offline). */
const ALIASES = 'https://contexts.example.com/aliases/';
const BROKEN = 'https://contexts.example.com/broken/';
const MISSING = 'https://contexts.example.com/missing/';
const REDEFINES_PROTECTED = 'https://contexts.example.com/redefines-protected/';
const SCOPED = 'https://contexts.example.com/scoped/';
/** One scoped context used as a type's (not propagated) and as a property's (propagated): the same document on equal contexts. */
const TYPE_AND_PROPERTY = 'https://contexts.example.com/type-and-property/';
const HOSTED: Record<string, unknown> = {
  [ALIASES]: { '@context': { subjectRef: { '@id': 'id' }, otherRef: 'id' } },
  [BROKEN]: { '@context': { battery: 5 } },
  [REDEFINES_PROTECTED]: { '@context': { name: 'https://example.com/name', type: 'https://example.com/type' } },
  [TYPE_AND_PROPERTY]: { '@context': { Widget: { '@id': 'https://example.com/Widget', '@context': { part: 'https://example.com/part', size: 'https://example.com/size' } }, carrier: 'https://example.com/carrier' } },
  [SCOPED]: { '@context': { '@vocab': 'https://example.com/vocab#', Widget: { '@id': 'https://example.com/Widget', '@context': { size: { '@type': '@id' } } } } },
};
const host: Fetcher = async (url) => {
  if (url === MISSING) return new Response('{}', { status: 404 });
  if (!(url in HOSTED)) throw new GuardedFetchError('network', `Could not resolve ${new URL(url).hostname}`);
  return new Response(JSON.stringify(HOSTED[url]));
};

const settings = documentSettings();
/** The old expansion: a fresh processed-context cache for every payload (nothing carried over). */
const oldExpansion = (payload: unknown) => createJsonLdExpansion(createDocumentSource(host, settings, createBundledArtefacts()), settings, oldEngine)(payload);
const checks = createPayloadChecks(host, settings);

const outcome = (run: Promise<unknown>) =>
  run.then(
    (expanded) => `accepted ${expanded === undefined ? '' : JSON.stringify(expanded)}`,
    (error: Error & { code?: string; extra?: { pointer?: string } }) => `${error.code ?? error.name} at ${error.extra?.pointer}: ${error.message}`,
  );

/** The old verdict, and the new expansion and check on the same payload, each on its own copy. */
let cases = 0;
const compare = async (label: string, payload: Json) => {
  cases += 1;
  const expected = await outcome(oldExpansion(clone(payload)));
  expect(await outcome(checks.expand(clone(payload))), label).toBe(expected);
  const checked = await outcome(checks.checkJsonLd(clone(payload) as object));
  expect(checked, label).toBe(expected.startsWith('accepted') ? 'accepted ' : expected);
  return expected.startsWith('accepted');
};

type Obj = Record<string, Json>;
const DPP_070 = '0.7.0-prerelease/dpp/DigitalProductPassport_instance.json';
const DPP_061 = '0.6.1/untp-dpp-instance-0.6.1.json';
const MUTATED = [DPP_070, '0.7.0-prerelease/dcc/ConformityCredential_instance.json', DPP_061, '0.7.0-prerelease/dte/DigitalTraceabilityEvent_instance.json'];

/** Every object in a document with its path (`@context` values left out). */
const objects = (value: Json, path: (string | number)[] = [], out: [(string | number)[], Obj][] = []) => {
  if (Array.isArray(value)) value.forEach((item, i) => objects(item, [...path, i], out));
  else if (value !== null && typeof value === 'object') {
    out.push([path, value]);
    for (const [k, v] of Object.entries(value)) if (k !== '@context') objects(v, [...path, k], out);
  }
  return out;
};
const at = (root: Json, path: (string | number)[]) => path.reduce<Json>((node, key) => (node as Obj)[key as string]!, root);

/** Targeted changes of one sample: each a name and a function changing a copy in place. */
const targeted = (sample: Json): [string, (p: Obj) => void][] => {
  const changes: [string, (p: Obj) => void][] = [];
  const withContext = (name: string, context: Json) => changes.push([`@context ${name}`, (p) => (p['@context'] = context)]);
  const contexts = (sample as Obj)['@context'] as Json[];
  withContext('a number', 5);
  withContext('null', null);
  withContext('empty', []);
  withContext('VC only', ['https://www.w3.org/ns/credentials/v2']);
  withContext('reversed', [...contexts].reverse());
  for (const url of [ALIASES, BROKEN, MISSING, REDEFINES_PROTECTED, SCOPED, 'https://contexts.invalid/none.jsonld']) withContext(`and ${url}`, [...contexts, url]);
  withContext('with an inline term whose @id is not a string', [...contexts, { bad: { '@id': 5 } }]);
  withContext('with an inline redefinition of a protected term', [...contexts, { name: 'https://example.com/name' }]);
  withContext('with an inline @vocab', [...contexts, { '@vocab': 'https://example.com/v#' }]);
  withContext('nulled after the others', [...contexts, null]);
  for (const [path, node] of objects(sample).slice(0, 16)) {
    const where = `/${path.join('/')}`;
    const keys = Object.keys(node).filter((k) => k !== '@context');
    if (keys.length === 0) continue;
    const first = keys[0]!;
    changes.push([`drop ${where}/${first}`, (p) => delete (at(p, path) as Obj)[first]]);
    changes.push([`rename ${where}/${first}`, (p) => {
      const o = at(p, path) as Obj;
      o[`${first}Renamed`] = o[first]!;
      delete o[first];
    }]);
    changes.push([`an undefined term in ${where}`, (p) => ((at(p, path) as Obj).unknownTerm = 'x')]);
    changes.push([`a nested untyped object in ${where}`, (p) => ((at(p, path) as Obj)[first] = { [first]: (at(p, path) as Obj)[first]! })]);
    changes.push([`${where}/${first} in an array`, (p) => ((at(p, path) as Obj)[first] = [(at(p, path) as Obj)[first]!, (at(p, path) as Obj)[first]!])]);
    if ('type' in node) {
      for (const type of [['UnknownType'], ['Product'], 'https://example.com/T', '_:b0', 'relative-ref', [], ['Widget']]) {
        changes.push([`${where}/type ${JSON.stringify(type)}`, (p) => ((at(p, path) as Obj).type = type as Json)]);
      }
      changes.push([`${where} without its type`, (p) => delete (at(p, path) as Obj).type]);
    }
    if ('id' in node) {
      for (const id of ['relative-ref', '@foo', '_:b1', 'urn:uuid:1', 42]) changes.push([`${where}/id ${JSON.stringify(id)}`, (p) => ((at(p, path) as Obj).id = id)]);
    }
  }
  return changes;
};

describe('JSON-LD expansion with processed contexts found by content gives the old expansion\'s verdict', () => {
  afterAll(() => console.log(`${cases} payloads compared`));

  it('the old expansion really is another copy of jsonld, without our context cache', () => {
    expect(pristine.util).not.toBe(jsonldUtil);
    expect(pristine.util.clone(new Map([['a', 1]]))).toBeInstanceOf(Map);
  });

  it('every bundled sample (and each twice)', async () => {
    for (const file of sampleFiles()) {
      for (const round of [1, 2]) await compare(`${file} (${round})`, readSample(file) as Json);
    }
  }, 240_000);

  it('the invalid payloads of the other tests', async () => {
    const dpp = readSample(DPP_070) as Obj;
    const dpp061 = readSample(DPP_061) as Obj;
    const corpus: [string, Json][] = [
      ['relatedNotes/remark', { ...dpp, relatedNotes: { remark: 'not in the vocabulary' } }],
      ['colour/shade~tone (0.6.1)', { ...dpp061, credentialSubject: { ...(dpp061.credentialSubject as Obj), 'colour/shade~tone': 'red' } }],
      ['a Gadget type (0.6.1)', { ...dpp061, credentialSubject: { ...(dpp061.credentialSubject as Obj), type: [...((dpp061.credentialSubject as Obj).type as Json[]), 'Gadget'] } }],
      ['the pre-release DIA with its render template outside the context', readSample('0.7.0-prerelease/dia/DigitalIdentityAnchor_instance.json') as Json],
      ['@context 5', { ...dpp, '@context': 5 }],
      ['issuer 5', { ...dpp, issuer: 5 }],
      ['credentialSubject []', { ...dpp, credentialSubject: [] }],
      ['validFrom soon', { ...dpp, validFrom: 'soon' }],
      ['type a string', { ...dpp, type: 'DigitalProductPassport' }],
      ['a relative subject id', { ...dpp, credentialSubject: { ...(dpp.credentialSubject as Obj), id: 'relative-ref' } }],
      ['an alias of @id with a relative value', { ...dpp, '@context': [...(dpp['@context'] as Json[]), ALIASES], credentialSubject: { ...(dpp.credentialSubject as Obj), subjectRef: 'relative-ref' } }],
      ['an alias of @id with an absolute value', { ...dpp, '@context': [...(dpp['@context'] as Json[]), ALIASES], credentialSubject: { ...(dpp.credentialSubject as Obj), otherRef: 'https://id.example.com/1' } }],
      ...[dpp, dpp061].flatMap((sample): [string, Json][] => {
        const withWidget = { ...sample, '@context': [...(sample['@context'] as Json[]), TYPE_AND_PROPERTY] };
        return [
          ['a context as a property\'s (propagates) and as a type\'s', { ...withWidget, Widget: { part: { size: 2 } }, carrier: { type: 'Widget', size: 1 } }],
          ['a context as a property\'s and as a type\'s (not propagated, so refused)', { ...withWidget, Widget: { part: { size: 2 } }, carrier: { type: 'Widget', part: { size: 3 } } }],
          ['a context as a type\'s only (refused)', { ...withWidget, carrier: { type: 'Widget', part: { size: 3 } } }],
          ['a context as a property\'s only', { ...withWidget, Widget: { part: { size: 2 } } }],
        ];
      }),
      ['a new member name each time (the bench)', { ...dpp, credentialSubject: { ...(dpp.credentialSubject as Obj), 'note[17]': 'a member of a new name' } }],
    ];
    for (const [label, payload] of corpus) await compare(label, payload);
  }, 240_000);

  it.each(MUTATED)('%s: targeted changes (contexts, dropped, renamed and undefined terms, nesting, arrays, types, ids, protected terms)', async (file) => {
    const sample = readSample(file) as Json;
    const changes = targeted(sample);
    let accepted = 0;
    for (const [label, change] of changes) {
      const payload = clone(sample) as Obj;
      change(payload);
      if (await compare(`${file}: ${label}`, payload)) accepted += 1;
    }
    // Both verdicts occur, so the comparison is not one-sided.
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThan(changes.length);
  }, 600_000);

  it.each(MUTATED)('%s: 40 random mutants', async (file) => {
    const sample = readSample(file) as Json;
    const next = random(file.length * 104_729);
    for (let i = 0; i < 40; i += 1) await compare(`random mutant ${i} of ${file}`, mutate(sample, next));
  }, 600_000);
});
