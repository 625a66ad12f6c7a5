import { close, createReadStream, fstat, open, readFile, readFileSync, statSync, writeFile, writeFileSync, type Stats } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import mime from 'mime';
import type { ObjectStore, StoredObject } from '../object-store.ts';

const writeNew = promisify(writeFile);
const openFile = promisify(open);
const statOpen = promisify(fstat);
const closeFile = promisify(close);
const readOpen = promisify(readFile);

/** Up to this size a read is sent from memory (one write to the socket); larger files are streamed. */
const BUFFERED_READ_MAX_BYTES = 1024 * 1024;

const isMissing = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR';
};

/**
 * Objects as files under `<root>/<bucket>/<key>`; exclusive create makes duplicate names lose atomically
 * (also between processes sharing the directory).
 *
 * Objects up to `syncIoMaxBytes` are written and read with synchronous calls: each call through the
 * libuv thread pool costs a cross-thread hand-off both ways, several per object (open, write, close;
 * open, fstat, read, close), which for a small file on a local disk is far more than the syscalls
 * themselves. Larger objects, and every object when the limit is 0 (a network file system, where a
 * syscall may wait), go through the thread pool so the event loop never waits on them; they are read
 * from the descriptor opened for the stat (a delete in between cannot cut a response), whole up to
 * 1 MiB and as a stream beyond.
 */
export class LocalStore implements ObjectStore {
  readonly #readyBuckets = new Set<string>();

  constructor(
    private readonly root: string,
    private readonly syncIoMaxBytes = 0,
  ) {}

  async putIfAbsent(bucket: string, key: string, body: Uint8Array): Promise<boolean> {
    const dir = join(this.root, bucket);
    if (!this.#readyBuckets.has(bucket)) {
      await mkdir(dir, { recursive: true });
      this.#readyBuckets.add(bucket);
    }
    const path = join(dir, key);
    try {
      if (body.byteLength <= this.syncIoMaxBytes) writeFileSync(path, body, { flag: 'wx' });
      else await writeNew(path, body, { flag: 'wx' });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
  }

  async get(bucket: string, key: string): Promise<StoredObject | undefined> {
    const path = join(this.root, bucket, key);
    try {
      if (this.syncIoMaxBytes > 0) {
        const info = statSync(path, { throwIfNoEntry: false });
        if (!info?.isFile()) return undefined;
        // Read what is there now; a file deleted since the stat is missing, as it would be a moment later.
        if (info.size <= this.syncIoMaxBytes) return storedObject(key, readFileSync(path), info);
      }
      return await this.#opened(key, path);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async #opened(key: string, path: string): Promise<StoredObject | undefined> {
    const fd = await openFile(path, 'r');
    let streaming = false;
    try {
      const info = await statOpen(fd);
      if (!info.isFile()) return undefined;
      if (info.size <= BUFFERED_READ_MAX_BYTES) return storedObject(key, await readOpen(fd), info);
      streaming = true; // from here the stream owns the descriptor and closes it
      const stream = createReadStream(path, { fd, autoClose: true, highWaterMark: 1024 * 1024 });
      return storedObject(key, Readable.toWeb(stream) as ReadableStream<Uint8Array>, info);
    } finally {
      if (!streaming) await closeFile(fd);
    }
  }

  async list(bucket: string, prefix: string): Promise<string[]> {
    try {
      return (await readdir(join(this.root, bucket))).filter((name) => name.startsWith(prefix));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  async remove(bucket: string, keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => rm(join(this.root, bucket, key), { force: true })));
  }
}

const storedObject = (key: string, body: StoredObject['body'], info: Stats): StoredObject => ({
  body,
  size: info.size,
  contentType: mime.getType(key) ?? 'application/octet-stream',
  etag: `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`,
  lastModified: info.mtime,
});
