import mime from 'mime';
import { digestMultibase, hexHash, sha256 } from './digests.ts';
import { encryptToEnvelope } from './envelope.ts';
import { badRequest, StorageError } from './errors.ts';
import type { ObjectStore } from './object-store.ts';
import type { StorageSettings } from './settings.ts';
import { type UploadRequest, validateData } from './upload-request.ts';

export type ApiVersion = '3.0.0' | 'v4';
export type Visibility = 'public' | 'private';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID.test(value);

/** The configured bucket a request names, or the default; 400 otherwise. */
export const resolveBucket = (settings: StorageSettings, requested: string | undefined): string => {
  const bucket = requested ?? settings.defaultBucket;
  if (!bucket) {
    throw badRequest('Bucket is required. Please provide a bucket name, or set the DEFAULT_BUCKET environment variable.');
  }
  assertConfiguredBucket(settings, bucket);
  return bucket;
};

export const assertConfiguredBucket = (settings: StorageSettings, bucket: string): void => {
  if (!settings.buckets.includes(bucket)) {
    throw badRequest(`Invalid bucket. Must be one of the following buckets: ${settings.buckets.join(', ')}`);
  }
};

export const objectUri = (settings: StorageSettings, version: ApiVersion, bucket: string, key: string) =>
  `${settings.publicUrl}/api/${version}/${bucket}/${key}`;

/**
 * One upload, in the upstream order of checks: bucket, content, id, object name, duplicate (409,
 * decided by the store atomically), then hash, encrypt when private, store. `answer` is the response
 * body; `bucket` and `key` say where the object went.
 */
export const storeUpload = async (
  store: ObjectStore,
  settings: StorageSettings,
  version: ApiVersion,
  visibility: Visibility,
  request: UploadRequest,
) => {
  const bucket = resolveBucket(settings, request.bucket);
  validateData(request.content);
  const id = request.id ?? crypto.randomUUID();
  if (!isUuid(id)) throw badRequest(`Invalid id ${id}. Please provide a valid UUID.`);

  const { content } = request;
  let extension = 'json';
  if (content.kind === 'file' && visibility === 'public') {
    const found = mime.getExtension(content.type);
    if (!found) throw badRequest(`Unable to determine file extension for MIME type '${content.type}'.`);
    extension = found;
  }
  const key = `${id}.${extension}`;

  // JSON: the server's own serialisation (original key order), as upstream hashes and stores it.
  const json = content.kind === 'json' ? JSON.stringify(content.data) : undefined;
  const plaintext = content.kind === 'json' ? Buffer.from(json!, 'utf8') : content.bytes;
  const digest = sha256(plaintext);
  let stored: Uint8Array = plaintext;
  let storedType = content.kind === 'json' ? 'application/json' : content.type;
  let decryptionKey: string | undefined;
  if (visibility === 'private') {
    const text = json ?? Buffer.from(plaintext.buffer, plaintext.byteOffset, plaintext.byteLength).toString('base64');
    const sealed = encryptToEnvelope(text, storedType);
    stored = Buffer.from(JSON.stringify(sealed.envelope), 'utf8');
    storedType = 'application/json';
    decryptionKey = sealed.decryptionKey;
  }

  if (!(await store.putIfAbsent(bucket, key, stored, storedType))) {
    const what = content.kind === 'json' ? 'A document' : 'A file';
    throw new StorageError(409, `${what} with the provided ID already exists in the specified bucket.`);
  }
  const uri = objectUri(settings, version, bucket, key);
  const integrity = version === 'v4' ? { digestMultibase: digestMultibase(digest) } : { hash: hexHash(digest) };
  return { answer: { uri, ...integrity, ...(decryptionKey ? { decryptionKey } : {}) }, bucket, key };
};
