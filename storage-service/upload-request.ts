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

/** Room for multipart boundaries and text fields on top of the file size limit. */
const MULTIPART_OVERHEAD = 64 * 1024;

const tooLarge = (limit: number) => new StorageError(413, `Upload exceeds the maximum allowed size of ${limit} bytes.`);

/**
 * Reads at most `limit` bytes of the body: a declared Content-Length over it is refused before
 * reading, and an undeclared (chunked) body is cut off as soon as it passes the limit, so nothing
 * beyond the limit is ever buffered.
 */
export const readLimited = async (request: Request, limit: number, reportedLimit = limit): Promise<Uint8Array> => {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) throw tooLarge(reportedLimit);
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(reportedLimit);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
};

const optionalText = (value: unknown, field: string): string | undefined => {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw badRequest(`${field} must be a string.`);
  return value;
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Parses `POST /public|/private`: a JSON body `{ bucket?, id?, data }` or a multipart form with `file`. */
export const parseUploadRequest = async (request: Request, settings: StorageSettings): Promise<UploadRequest> => {
  const contentType = (request.headers.get('content-type') ?? '').toLowerCase();
  if (contentType.startsWith('application/json')) {
    const raw = await readLimited(request, settings.maxUploadSize);
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder().decode(raw));
    } catch {
      throw badRequest('Malformed JSON body. Please send a valid JSON object.');
    }
    if (!isPlainObject(body)) throw badRequest('The request body must be a JSON object.');
    return {
      bucket: optionalText(body.bucket, 'bucket'),
      id: optionalText(body.id, 'id'),
      content: { kind: 'json', data: body.data as Record<string, unknown> },
    };
  }
  if (contentType.startsWith('multipart/form-data')) {
    const raw = await readLimited(request, settings.maxUploadSize + MULTIPART_OVERHEAD, settings.maxUploadSize);
    let form: FormData;
    try {
      form = await new Response(raw as BodyInit, { headers: { 'content-type': contentType } }).formData();
    } catch {
      throw badRequest('Malformed multipart body.');
    }
    for (const [name, value] of form.entries()) {
      if (typeof value !== 'string' && name !== 'file') throw badRequest(`Unexpected field ${name}. Send the file as "file".`);
    }
    const file = form.get('file');
    if (!(file instanceof Blob)) throw badRequest('File is required for multipart uploads.');
    if (file.size > settings.maxUploadSize) throw tooLarge(settings.maxUploadSize);
    const type = file.type.split(';')[0]!.trim().toLowerCase();
    if (!settings.allowedUploadTypes.includes(type)) {
      throw badRequest(`File type '${type || 'unknown'}' is not allowed. Allowed types: ${settings.allowedUploadTypes.join(', ')}`);
    }
    return {
      bucket: optionalText(form.get('bucket'), 'bucket'),
      id: optionalText(form.get('id'), 'id'),
      content: { kind: 'file', bytes: new Uint8Array(await file.arrayBuffer()), type },
    };
  }
  throw new StorageError(415, 'Content-Type must be application/json or multipart/form-data.');
};

export const validateData = (content: UploadContent): void => {
  if (content.kind === 'json' && !isPlainObject(content.data)) {
    throw badRequest('Data must be a JSON object. Please provide a valid JSON object.');
  }
};
