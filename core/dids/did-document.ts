import { Validator } from '@cfworker/json-schema';
import { GuardedFetchError, type Fetcher } from '../net/fetcher.ts';
import { didDocumentSchema } from './did-document.schema.ts';
import { didWebDocumentUrl, parseDid } from './did-web.ts';

const validator = new Validator(didDocumentSchema as never, '7', false);

/** The first problem of a document against the DID Core schema, or undefined when it conforms. */
export const didDocumentProblem = (document: unknown): string | undefined => {
  const result = validator.validate(document);
  if (result.valid) return undefined;
  const error = result.errors[result.errors.length - 1]!;
  return `${error.instanceLocation}: ${error.error}`;
};

export type Resolution =
  | { ok: true; finalUrl: string; document: unknown }
  | { ok: false; finalUrl?: string; message: string };

/**
 * Fetches a did:web document from where the DID says it is hosted, through the guarded fetcher
 * (its size, time, redirect and address bounds are the spec's limits for this fetch).
 */
export const fetchDidWebDocument = async (fetcher: Fetcher, did: string): Promise<Resolution> => {
  const parsed = parseDid(did);
  if (!parsed || parsed.method !== 'web') return { ok: false, message: `${did} is not a did:web DID` };
  const url = didWebDocumentUrl(parsed.identifier);
  let response: Response;
  try {
    response = await fetcher(url, { headers: { accept: 'application/did+json, application/json' } });
  } catch (error) {
    const why = error instanceof GuardedFetchError ? `${error.reason}: ${error.message}` : String(error);
    return { ok: false, message: `Could not fetch ${url} (${why})` };
  }
  const finalUrl = response.url || url;
  if (!response.ok) return { ok: false, finalUrl, message: `${finalUrl} answered HTTP ${response.status}` };
  try {
    return { ok: true, finalUrl, document: JSON.parse(await response.text()) };
  } catch {
    return { ok: false, finalUrl, message: `${finalUrl} did not return JSON` };
  }
};
