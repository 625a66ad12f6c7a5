import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { KeyLocks, type ObjectStore, type StoredObject } from '../object-store.ts';

const isMissing = (error: unknown) =>
  error instanceof S3ServiceException && (error.$metadata.httpStatusCode === 404 || error.name === 'NoSuchKey' || error.name === 'NotFound');

/**
 * Objects in an S3-compatible store (MinIO in compose, s3rver in tests). Duplicate names are refused
 * with a conditional write (`If-None-Match: *`, honoured by AWS S3 and MinIO) and, for stores that
 * ignore it, an existence check made atomic within this process by a per-name lock.
 */
export class S3Store implements ObjectStore {
  readonly #locks = new KeyLocks();

  constructor(private readonly client: S3Client) {}

  /** Credentials come from the SDK's default chain unless given (edge runtimes have no such chain). */
  static connect(options: {
    endpoint?: string;
    region: string;
    forcePathStyle: boolean;
    credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  }): S3Store {
    return new S3Store(
      new S3Client({
        region: options.region,
        endpoint: options.endpoint,
        forcePathStyle: options.forcePathStyle,
        ...(options.credentials ? { credentials: options.credentials } : {}),
        // Without these, streamed bodies are stored with aws-chunked framing by some S3-compatible stores.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
    );
  }

  putIfAbsent(bucket: string, key: string, body: Uint8Array, contentType: string): Promise<boolean> {
    return this.#locks.run(`${bucket}/${key}`, async () => {
      if (await this.#exists(bucket, key)) return false;
      try {
        await this.client.send(
          new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType, IfNoneMatch: '*' }),
        );
        return true;
      } catch (error) {
        if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 412) return false;
        throw error;
      }
    });
  }

  async #exists(bucket: string, key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async get(bucket: string, key: string): Promise<StoredObject | undefined> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return {
        body: out.Body!.transformToWebStream() as ReadableStream<Uint8Array>,
        size: out.ContentLength,
        contentType: out.ContentType ?? 'application/octet-stream',
        etag: out.ETag ?? '',
        lastModified: out.LastModified ?? new Date(0),
      };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async list(bucket: string, prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
      keys.push(...(page.Contents ?? []).flatMap((o) => (o.Key ? [o.Key] : [])));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }

  async remove(bucket: string, keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys.map((Key) => ({ Key })) } }));
  }
}
