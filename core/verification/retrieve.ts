import { GuardedFetchError, type Fetcher } from '../net/fetcher.ts';
import { publicUrlProblem } from '../net/public-url.ts';
import { MAX_DOCUMENT_DEPTH, withinDepth } from './json-depth.ts';
import { VerificationStop } from './outcome.ts';

export interface Retrieved {
  /** The body's exact bytes (what a digest of the stored text is computed over). */
  bytes: Uint8Array;
  /** The body parsed as a JSON object. */
  document: Record<string, unknown>;
}

/** A JSON object from UTF-8 bytes, or undefined when the bytes are not one. */
export const parseJsonObject = (bytes: Uint8Array): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The document at `uri`, through the guarded fetcher (public addresses only unless allowed, checked
 * again on every redirect hop; at most 3 hops; time and size capped). An address we must not contact
 * is the caller's mistake (URI_NOT_ALLOWED); a source that cannot be read is UPSTREAM_ERROR; a body
 * that is not a JSON object is INVALID_RESPONSE.
 */
export const retrieve = async (fetcher: Fetcher, uri: string, allowPrivateUrls: boolean): Promise<Retrieved> => {
  const problem = publicUrlProblem(uri, allowPrivateUrls);
  if (problem) throw new VerificationStop('URI_NOT_ALLOWED', `uri: ${problem}`);
  let response: Response;
  let bytes: Uint8Array;
  try {
    response = await fetcher(uri, { headers: { accept: 'application/json' } });
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    if (error instanceof GuardedFetchError) {
      if (error.reason === 'blocked-address') throw new VerificationStop('URI_NOT_ALLOWED', 'uri: must not point to a private or reserved address');
      if (error.reason === 'bad-url') throw new VerificationStop('URI_NOT_ALLOWED', `uri: ${error.message}`);
      throw new VerificationStop('UPSTREAM_ERROR', `The credential could not be retrieved: ${sourceProblem(error)}`);
    }
    throw new VerificationStop('UPSTREAM_ERROR', 'The credential could not be retrieved: the source could not be reached');
  }
  if (!response.ok) throw new VerificationStop('UPSTREAM_ERROR', `The credential could not be retrieved: the source answered HTTP ${response.status}`);
  const document = parseJsonObject(bytes);
  if (!document) throw new VerificationStop('INVALID_RESPONSE', 'The resource at uri is not a JSON object');
  if (!withinDepth(document)) throw new VerificationStop('INVALID_RESPONSE', `The resource at uri nests deeper than ${MAX_DOCUMENT_DEPTH} levels`);
  return { bytes, document };
};

/** What a stranger may learn about why the fetch failed: the kind, never internal addresses. */
const sourceProblem = (error: GuardedFetchError): string => {
  switch (error.reason) {
    case 'timeout':
      return 'the source did not answer in time';
    case 'too-large':
      return 'the response is larger than allowed';
    case 'too-many-redirects':
      return 'too many redirects';
    default:
      return 'the source could not be reached';
  }
};
