import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GuardedFetchError, type Fetcher } from '../../net/fetcher.ts';
import type { DocumentSettings } from '../../settings/document-settings.ts';

/** The machines running the tests cannot reach the UNTP or W3C hosts: every request fails like that. */
export const offlineFetcher = (calls: string[] = []): Fetcher => async (url) => {
  calls.push(url);
  throw new GuardedFetchError('network', `Could not resolve ${new URL(url).hostname}`);
};

export const documentSettings = (overrides: Partial<DocumentSettings> = {}): DocumentSettings => ({
  schemaCacheTtlMs: 3_600_000,
  contextCacheTtlMs: 3_600_000,
  cacheMaxEntries: undefined,
  bundledArtefacts: true,
  ...overrides,
});

/** Published UNTP sample credentials, kept in this folder (they are test data, not shipped artefacts). */
const SAMPLES = join(import.meta.dirname, 'samples');

export const sampleFiles = (): string[] =>
  readdirSync(SAMPLES, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json')).sort();

export const readSample = (file: string): Record<string, unknown> => JSON.parse(readFileSync(join(SAMPLES, file), 'utf8'));
