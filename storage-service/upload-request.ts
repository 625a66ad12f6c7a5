import { MaxFileSizeExceededError, MultipartParser, type MultipartPart } from '@remix-run/multipart-parser';
import { badRequest, StorageError } from './errors.ts';
import type { StorageSettings } from './settings.ts';

export type UploadContent =
  | { kind: 'json'; data: Record<string, unknown> }
  | { kind: 'file'; bytes: Uint8Array; type: string };

export interface UploadRequest {
  bucket?: string;
  id?: string;
  content: UploadContent;
}

/** Room for multipart boundaries, part headers and the text fields on top of the file size limit. */
const MULTIPART_OVERHEAD = 64 * 1024;
/** `file`, `bucket`, `id` and a little slack; anything beyond is not a form of ours. */
const MAX_PARTS = 8;

const tooLarge = (what: 'Upload' | 'File', limit: number) =>
  new StorageError(413, `${what} exceeds the maximum allowed size of ${limit} bytes.`);

const declaredLength = (request: Request) => Number(request.headers.get('content-length') ?? Number.NaN);

/**
 * The body's chunks as they arrive, refusing (413) a declared Content-Length over `limit` before
 * reading and an undeclared (chunked) body as soon as it passes the limit: nothing beyond the limit
 * is ever held. On refusal the rest of the body is left unread (the response closes the connection).
 */
async function* limitedChunks(request: Request, limit: number, refusal: () => StorageError): AsyncGenerator<Uint8Array> {
  if (declaredLength(request) > limit) throw refusal();
  if (!request.body) return;
  const reader = request.body.getReader();
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      total += value.byteLength;
      if (total > limit) throw refusal();
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** The whole body, at most `limit` bytes (413 beyond). */
export const readLimited = async (request: Request, limit: number): Promise<Uint8Array> => {
  const declared = declaredLength(request);
  if (declared > limit) throw tooLarge('Upload', limit);
  // A declared length within the limit bounds what the HTTP parser delivers: read it in one go
  // (the Node adapter then skips the web-stream machinery).
  if (Number.isSafeInteger(declared)) return new Uint8Array(await request.arrayBuffer());
  const chunks: Uint8Array[] = [];
  for await (const chunk of limitedChunks(request, limit, () => tooLarge('Upload', limit))) chunks.push(chunk);
  return Buffer.concat(chunks);
};

const optionalText = (value: unknown, field: string): string | undefined => {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw badRequest(`${field} must be a string.`);
  return value;
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Stored JSON is hashed with JSON.stringify, which recurses: deeper bodies are refused up front. */
export const MAX_JSON_DEPTH = 256;

/** True when the value nests objects/arrays deeper than `max` (walked without recursion). */
const nestingExceeds = (root: unknown, max: number): boolean => {
  const pending: [unknown, number][] = [[root, 1]];
  while (pending.length > 0) {
    const [value, depth] = pending.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(value)) pending.push([child, depth + 1]);
  }
  return false;
};

const parseJsonUpload = async (request: Request, settings: StorageSettings): Promise<UploadRequest> => {
  const raw = await readLimited(request, settings.maxUploadSize);
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8'));
  } catch {
    throw badRequest('Malformed JSON body. Please send a valid JSON object.');
  }
  if (!isPlainObject(body)) throw badRequest('The request body must be a JSON object.');
  if (nestingExceeds(body, MAX_JSON_DEPTH)) throw badRequest(`The JSON body must not nest deeper than ${MAX_JSON_DEPTH} levels.`);
  return {
    bucket: optionalText(body.bucket, 'bucket'),
    id: optionalText(body.id, 'id'),
    content: { kind: 'json', data: body.data as Record<string, unknown> },
  };
};

/**
 * A multipart form parsed as it streams in: each part is held once (no copy of the raw body), the
 * file part is refused (413) as soon as it passes MAX_UPLOAD_SIZE, and the body as a whole as soon
 * as it passes the limit plus room for the form's framing.
 */
const parseMultipartUpload = async (request: Request, settings: StorageSettings, contentType: string): Promise<UploadRequest> => {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  if (!boundary) throw badRequest('Malformed multipart body: no boundary.');
  const limit = settings.maxUploadSize;
  const parser = new MultipartParser((boundary[1] ?? boundary[2])!.trim(), {
    maxFileSize: limit,
    maxTotalSize: limit + MULTIPART_OVERHEAD,
    maxParts: MAX_PARTS,
  });
  const parts: MultipartPart[] = [];
  try {
    for await (const chunk of limitedChunks(request, limit + MULTIPART_OVERHEAD, () => tooLarge('File', limit))) {
      for (const part of parser.write(chunk)) parts.push(part);
    }
    parser.finish();
  } catch (error) {
    if (error instanceof StorageError) throw error;
    if (error instanceof MaxFileSizeExceededError) throw tooLarge('File', limit);
    throw badRequest('Malformed multipart body.');
  }

  const fields: Record<string, string> = {};
  let file: MultipartPart | undefined;
  for (const part of parts) {
    const name = part.name ?? '';
    if (part.isFile) {
      if (name !== 'file' || file) throw badRequest(`Unexpected field ${name}. Send one file, as "file".`);
      file = part;
    } else {
      fields[name] = part.text;
    }
  }
  if (!file) throw badRequest('File is required for multipart uploads.');
  const type = (file.mediaType ?? '').toLowerCase();
  if (!settings.allowedUploadTypes.includes(type)) {
    throw badRequest(`File type '${type || 'unknown'}' is not allowed. Allowed types: ${settings.allowedUploadTypes.join(', ')}`);
  }
  return {
    bucket: optionalText(fields.bucket, 'bucket'),
    id: optionalText(fields.id, 'id'),
    content: { kind: 'file', bytes: Buffer.concat(file.content, file.size), type },
  };
};

/** Parses `POST /public|/private`: a JSON body `{ bucket?, id?, data }` or a multipart form with `file`. */
export const parseUploadRequest = async (request: Request, settings: StorageSettings): Promise<UploadRequest> => {
  const contentType = request.headers.get('content-type') ?? '';
  const mediaType = contentType.toLowerCase();
  if (mediaType.startsWith('application/json')) return parseJsonUpload(request, settings);
  // The boundary is case-sensitive: taken from the header as sent.
  if (mediaType.startsWith('multipart/form-data')) return parseMultipartUpload(request, settings, contentType);
  throw badRequest('Content-Type must be application/json or multipart/form-data.');
};

export const validateData = (content: UploadContent): void => {
  if (content.kind === 'json' && !isPlainObject(content.data)) {
    throw badRequest('Data must be a JSON object. Please provide a valid JSON object.');
  }
};
