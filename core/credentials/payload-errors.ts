import { ApiError } from '../errors.ts';

/**
 * The stable codes of a refused credential payload (the peer's names, so its clients work):
 * the payload fails a schema / is not valid JSON-LD under its contexts; a schema / context could not
 * be obtained or is not a usable document.
 */
export type PayloadRefusal = 'SCHEMA_DOCUMENT_INVALID' | 'JSONLD_DOCUMENT_INVALID' | 'SCHEMA_FETCH_FAILED' | 'JSONLD_CONTEXT_FETCH_FAILED';

/** The request field the payload arrives in; pointers inside it are reported after it. */
export const PAYLOAD_FIELD = 'credentialPayload';

/** `credentialPayload/credentialSubject/name: <problem>`, with the JSON pointer also as `pointer`. */
export const payloadRefused = (code: PayloadRefusal, pointer: string, problem: string) =>
  new ApiError(400, `${PAYLOAD_FIELD}${pointer}: ${problem}`, code, { pointer });

/** RFC 6901 pointer of a path of keys and indexes. */
export const jsonPointer = (path: readonly (string | number)[]): string =>
  path.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
