/**
 * A stored object as read back: small bodies in memory, large ones as a stream that is read only as
 * the response is sent (the reader cancels it when it does not send the body, as for a 304).
 */
export interface StoredObject {
  body: Uint8Array | ReadableStream<Uint8Array>;
  /** Bytes in the body, when the store knows it (sent as Content-Length). */
  size?: number;
  contentType: string;
  etag: string;
  lastModified: Date;
}

/**
 * Where the storage service keeps objects: one interface, a local-directory and an S3 implementation,
 * both covered by the same behavioural tests.
 */
export interface ObjectStore {
  /** Writes the object unless one of that name exists; false when it existed (nothing written). */
  putIfAbsent(bucket: string, key: string, body: Uint8Array, contentType: string): Promise<boolean>;
  get(bucket: string, key: string): Promise<StoredObject | undefined>;
  /** Names of the bucket's objects that start with `prefix`. */
  list(bucket: string, prefix: string): Promise<string[]>;
  remove(bucket: string, keys: string[]): Promise<void>;
}

/**
 * Serialises writes of one object name within this process, so that an existence check and the
 * write that follows act as one step even where the backend has no conditional write.
 */
export class KeyLocks {
  readonly #tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const current = previous.then(work, work);
    const tail = current.catch(() => {});
    this.#tails.set(key, tail);
    try {
      return await current;
    } finally {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }
}
