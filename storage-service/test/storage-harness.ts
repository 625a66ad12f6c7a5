import { createAdaptorServer } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { createLogger } from '../../core/logging/logger.ts';
import { swaggerUiFilesFromPackage } from '../../core/service-kit/swagger-ui-files.ts';
import { freePort } from '../../test/rig/postgres-server.ts';
import { buildStorageApp } from '../app.ts';
import { LocalStore } from '../backends/local-store.ts';
import { S3Store } from '../backends/s3-store.ts';
import { readStorageSettings, type StorageSettings } from '../settings.ts';

export const API_KEY = 'test-storage-key-0123456789';
export type Backend = 'local' | 's3';

export interface StorageHarness {
  url: string;
  settings: StorageSettings;
  call(method: string, path: string, init?: { json?: unknown; form?: FormData; raw?: BodyInit; headers?: Record<string, string>; key?: string | null }): Promise<Response>;
  close(): Promise<void>;
}

/** The storage app on a loopback port over a real backend: a temp directory, or s3rver (a real S3 protocol server). */
export const startStorage = async (backend: Backend, env: Record<string, string> = {}): Promise<StorageHarness> => {
  const dir = await mkdtemp(join(tmpdir(), `css-storage-${backend}-`));
  let s3: S3rver | undefined;
  const server = createAdaptorServer({ fetch: (r: Request) => handler(r), hostname: '127.0.0.1' }) as Server;
  let handler: (r: Request) => Response | Promise<Response> = () => new Response('starting', { status: 503 });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const settings = readStorageSettings({
    API_KEY,
    PUBLIC_URL: url,
    AVAILABLE_BUCKETS: 'documents,files',
    DEFAULT_BUCKET: 'documents',
    MAX_UPLOAD_SIZE: String(2 * 1024 * 1024),
    STORAGE_TYPE: backend,
    S3_REGION: 'us-east-1',
    LOCAL_DIRECTORY: join(dir, 'objects'),
    ...env,
  });
  let store;
  if (backend === 's3') {
    const port = await freePort();
    s3 = new S3rver({ port, address: '127.0.0.1', directory: join(dir, 's3'), silent: true, configureBuckets: settings.buckets.map((name) => ({ name, configs: [] })) });
    await s3.run();
    process.env.AWS_ACCESS_KEY_ID ??= 'S3RVER';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'S3RVER';
    store = S3Store.connect({ endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', forcePathStyle: true });
  } else {
    store = new LocalStore(settings.localDirectory, settings.localSyncIoMaxBytes);
  }
  const app = buildStorageApp({ settings, store, logger: createLogger('error'), swaggerUiFiles: swaggerUiFilesFromPackage() });
  handler = (r) => app.fetch(r);

  return {
    url,
    settings,
    call: (method, path, init = {}) => {
      const headers: Record<string, string> = { ...init.headers };
      if (init.key !== null) headers['x-api-key'] = init.key ?? API_KEY;
      let body: BodyInit | undefined = init.raw ?? init.form;
      if (init.json !== undefined) {
        body = JSON.stringify(init.json);
        headers['content-type'] = 'application/json';
      }
      return fetch(`${url}${path}`, { method, headers, body });
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await s3?.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
};
