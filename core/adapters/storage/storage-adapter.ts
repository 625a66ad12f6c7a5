import { traceHeaders as traceContextHeaders } from '../../tracing/trace-context.ts';
import { base58btc } from 'multiformats/bases/base58';
import { create as createDigest } from 'multiformats/hashes/digest';
import { hexToBytes } from '../../crypto/encoding.ts';
import type { Fetcher } from '../../net/fetcher.ts';
import * as z from 'zod';
import { AdapterError, callUpstream, upstreamJson } from '../adapter-errors.ts';
import { traceHeaders, type CallContext } from '../trace-headers.ts';

/** What an upload answers: 4.x `digestMultibase`, 3.x hex `hash`, and a `decryptionKey` for private uploads. */
const UploadAnswer = z.object({
  uri: z.string().min(1),
  digestMultibase: z.string().min(2).optional(),
  hash: z.string().optional(),
  decryptionKey: z.string().min(1).optional(),
});

/** STORAGE_ADAPTER config (validated by `core/service-instances/adapter-configs.ts`). */
export interface StorageConfig {
  baseUrl: string;
  apiKey?: string;
  apiVersion: string;
  publicBucket: string;
  privateBucket: string;
}

export interface StoredDocument {
  uri: string;
  digestMultibase: string;
  /** Present for encrypted uploads; returned by the service once. */
  decryptionKey?: string;
}

/** An object our storage service stored under a correlation id (`GET /api/correlations/:id`; upstream has no such route). */
export interface CorrelatedObject {
  uri: string;
  bucket: string;
  key: string;
  visibility: 'public' | 'private';
  storedAt: string;
  /** False once the object was deleted. */
  exists: boolean;
}

const CorrelatedObjectAnswer = z.looseObject({
  uri: z.string(),
  bucket: z.string(),
  key: z.string(),
  visibility: z.enum(['public', 'private']),
  storedAt: z.string(),
  exists: z.boolean(),
});

const CorrelatedAnswer = z.looseObject({ objects: z.array(CorrelatedObjectAnswer) });

/** The listing names each object's correlation id too. */
const ListedAnswer = z.looseObject({
  objects: z.array(CorrelatedObjectAnswer.extend({ correlationId: z.string() })),
  next: z.string().optional(),
});

export interface StorageAdapter {
  storeJson(data: Record<string, unknown>, options: { encrypt: boolean; id?: string }): Promise<StoredDocument>;
  storeFile(bytes: Uint8Array, contentType: string, options: { encrypt: boolean; id?: string; filename?: string }): Promise<StoredDocument>;
  /** Deletes every object of the id in the bucket used for that visibility. */
  delete(id: string, options: { encrypted: boolean }): Promise<void>;
  /** The objects stored under a correlation id, in any bucket (at most 20). */
  findByCorrelation(correlationId: string): Promise<CorrelatedObject[]>;
  /** One page of the objects stored under any correlation id in a bucket (`next` when more follow). */
  listCorrelated(bucket: string, after?: string): Promise<{ objects: (CorrelatedObject & { correlationId: string })[]; next?: string }>;
  /** The buckets this instance stores in (public, private). */
  buckets(): string[];
  /** Deletes one object (every object of its id) in a named bucket. */
  removeObject(bucket: string, key: string): Promise<void>;
}

/** `4.0` speaks `/api/v4`; any 3.x.y speaks the real 3.x path `/api/3.0.0`. */
export const storagePathSegment = (apiVersion: string) => (apiVersion.startsWith('3.') ? '3.0.0' : 'v4');

/** A 3.x hex SHA-256 `hash` as the v4 `digestMultibase` (sha2-256 multihash, base58btc). */
export const hexHashToMultibase = (hex: string) => base58btc.encode(createDigest(0x12, hexToBytes(hex)).bytes);

/** The storage service client (uncefact storage service 3.x and 4.x, and ours). */
export const createStorageAdapter = (config: StorageConfig, fetcher: Fetcher, context: CallContext = {}): StorageAdapter => {
  const root = config.baseUrl.replace(/\/+$/, '');
  const base = `${root}/api/${storagePathSegment(config.apiVersion)}`;
  // Every call's headers: the key and the trace headers.
  const auth: Record<string, string> = { ...(config.apiKey ? { 'x-api-key': config.apiKey } : {}), ...traceHeaders(context) };

  const read = async (res: Response, encrypt: boolean): Promise<StoredDocument> => {
    const body = await upstreamJson('STORAGE', res, UploadAnswer);
    const digest = body.digestMultibase ?? (body.hash && /^[0-9a-f]{64}$/i.test(body.hash) ? hexHashToMultibase(body.hash) : undefined);
    if (!digest) throw new AdapterError('unavailable', 'STORAGE', 'Storage service answered without an integrity value (digestMultibase or hex hash)');
    if (encrypt && !body.decryptionKey) {
      throw new AdapterError('unavailable', 'STORAGE', 'Storage service answered an encrypted upload without a decryptionKey');
    }
    return { uri: body.uri, digestMultibase: digest, ...(encrypt ? { decryptionKey: body.decryptionKey } : {}) };
  };

  const bucketFor = (encrypt: boolean) => (encrypt ? config.privateBucket : config.publicBucket);

  return {
    async storeJson(data, { encrypt, id }) {
      const res = await callUpstream('STORAGE', () =>
        fetcher(`${base}/${encrypt ? 'private' : 'public'}`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json', ...traceContextHeaders() },
          body: JSON.stringify({ data, id: id ?? crypto.randomUUID(), bucket: bucketFor(encrypt) }),
        }),
      );
      return read(res, encrypt);
    },

    async storeFile(bytes, contentType, { encrypt, id, filename }) {
      const form = new FormData();
      form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: contentType }), filename ?? 'upload');
      form.append('id', id ?? crypto.randomUUID());
      form.append('bucket', bucketFor(encrypt));
      // Serialise the form once so the guarded fetcher sends a plain body with its boundary.
      const encoded = new Response(form);
      const body = new Uint8Array(await encoded.arrayBuffer());
      const res = await callUpstream('STORAGE', () =>
        fetcher(`${base}/${encrypt ? 'private' : 'public'}`, {
          method: 'POST',
          headers: { ...auth, 'content-type': encoded.headers.get('content-type')!, ...traceContextHeaders() },
          body,
        }),
      );
      return read(res, encrypt);
    },

    async delete(id, { encrypted }) {
      await callUpstream('STORAGE', () =>
        fetcher(`${base}/${bucketFor(encrypted)}/${encodeURIComponent(id)}`, { method: 'DELETE', headers: { ...auth, ...traceContextHeaders() } }),
      );
    },

    async findByCorrelation(correlationId) {
      const res = await callUpstream('STORAGE', () => fetcher(`${root}/api/correlations/${encodeURIComponent(correlationId)}`, { headers: auth }));
      return (await upstreamJson('STORAGE', res, CorrelatedAnswer)).objects;
    },

    async listCorrelated(bucket, after = '') {
      const query = `bucket=${encodeURIComponent(bucket)}&after=${encodeURIComponent(after)}`;
      const res = await callUpstream('STORAGE', () => fetcher(`${root}/api/correlations?${query}`, { headers: auth }));
      return upstreamJson('STORAGE', res, ListedAnswer);
    },

    buckets: () => [...new Set([config.publicBucket, config.privateBucket])],

    async removeObject(bucket, key) {
      const id = key.replace(/\.[^.]+$/, '');
      await callUpstream('STORAGE', () => fetcher(`${base}/${encodeURIComponent(bucket)}/${encodeURIComponent(id)}`, { method: 'DELETE', headers: auth }));
    },
  };
};
