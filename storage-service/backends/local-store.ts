import { readFile, stat, writeFile } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import { join } from 'node:path';
import mime from 'mime';
import type { ObjectStore, StoredObject } from '../object-store.ts';

/*
 * The callback fs API for the per-request reads and writes: fs/promises opens a FileHandle per call,
 * which was the largest cost of a small upload.
 */
const writeNew = promisify(writeFile);
const readWhole = promisify(readFile);
const statOf = promisify(stat);

/** Objects as files under `<root>/<bucket>/<key>`; exclusive create makes duplicate names lose atomically. */
export class LocalStore implements ObjectStore {
  readonly #readyBuckets = new Set<string>();

  constructor(private readonly root: string) {}

  async putIfAbsent(bucket: string, key: string, body: Uint8Array): Promise<boolean> {
    const dir = join(this.root, bucket);
    if (!this.#readyBuckets.has(bucket)) {
      await mkdir(dir, { recursive: true });
      this.#readyBuckets.add(bucket);
    }
    try {
      await writeNew(join(dir, key), body, { flag: 'wx' });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
  }

  async get(bucket: string, key: string): Promise<StoredObject | undefined> {
    const path = join(this.root, bucket, key);
    try {
      const [body, info] = await Promise.all([readWhole(path), statOf(path)]);
      return {
        body,
        contentType: mime.getType(key) ?? 'application/octet-stream',
        etag: `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`,
        lastModified: info.mtime,
      };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return undefined;
      throw error;
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
