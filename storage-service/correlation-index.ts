import type { ObjectStore } from './object-store.ts';

/**
 * Which objects were stored under a caller's correlation id (`x-correlation-id`, sent by the main
 * API for each batch item): a small JSON object per upload, in the upload's bucket, named
 * `corr.<correlation id>.<object key>`. Correlation ids have no dots, so the prefix of one id never
 * matches another's. These names are never served by the public read route.
 */
export const INDEX_PREFIX = 'corr.';

export interface CorrelatedObject {
  uri: string;
  bucket: string;
  key: string;
  visibility: 'public' | 'private';
  storedAt: string;
}

/** Most objects one lookup returns (an item stores one; an id reused beyond this is not an item's). */
export const MAX_OBJECTS_PER_LOOKUP = 20;

export const isIndexName = (name: string) => name.startsWith(INDEX_PREFIX);

const indexPrefix = (correlationId: string) => `${INDEX_PREFIX}${correlationId}.`;

export const recordCorrelation = async (store: ObjectStore, correlationId: string, object: CorrelatedObject): Promise<void> => {
  const body = new TextEncoder().encode(JSON.stringify(object));
  await store.putIfAbsent(object.bucket, `${indexPrefix(correlationId)}${object.key}`, body, 'application/json');
};

const readBody = async (body: Uint8Array | ReadableStream<Uint8Array>): Promise<string> =>
  body instanceof ReadableStream ? new Response(body).text() : new TextDecoder().decode(body);

/**
 * The objects recorded under a correlation id, in every bucket, each with whether it is still
 * there (`exists: false` once it was deleted).
 */
export const findByCorrelation = async (
  store: ObjectStore,
  buckets: readonly string[],
  correlationId: string,
): Promise<(CorrelatedObject & { exists: boolean })[]> => {
  const found: (CorrelatedObject & { exists: boolean })[] = [];
  for (const bucket of buckets) {
    const names = (await store.list(bucket, indexPrefix(correlationId))).sort();
    for (const name of names) {
      if (found.length >= MAX_OBJECTS_PER_LOOKUP) return found;
      const entry = await store.get(bucket, name);
      if (!entry) continue;
      const object = JSON.parse(await readBody(entry.body)) as CorrelatedObject;
      found.push({ ...object, exists: (await store.list(bucket, object.key)).includes(object.key) });
    }
  }
  return found;
};

/** Most index entries one page of the orphan sweep returns. */
export const MAX_LISTED = 200;

/**
 * The objects stored under any correlation id in one bucket, by index name after `after`, a page
 * at a time (`next` is the cursor of the next page), each with its correlation id and whether it is still there.
 */
export const listCorrelated = async (store: ObjectStore, bucket: string, after: string, limit: number) => {
  const names = (await store.list(bucket, INDEX_PREFIX)).filter((n) => n > after).sort().slice(0, limit);
  const objects: (CorrelatedObject & { correlationId: string; exists: boolean })[] = [];
  for (const name of names) {
    const entry = await store.get(bucket, name);
    if (!entry) continue;
    const object = JSON.parse(await readBody(entry.body)) as CorrelatedObject;
    const correlationId = name.slice(INDEX_PREFIX.length, name.length - object.key.length - 1);
    objects.push({ ...object, correlationId, exists: (await store.list(bucket, object.key)).includes(object.key) });
  }
  return { objects, ...(names.length === limit ? { next: names.at(-1)! } : {}) };
};
