import '@hono/zod-openapi';
import type { OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import type { StorageSettings } from './settings.ts';

const Message = z.object({ message: z.string() }).openapi('StorageError');
const JsonUpload = z
  .object({
    bucket: z.string().optional().openapi({ description: 'A configured bucket; DEFAULT_BUCKET when omitted' }),
    id: z.string().uuid().optional().openapi({ description: 'Generated when omitted' }),
    data: z.record(z.string(), z.unknown()).openapi({ description: 'Any JSON object' }),
  })
  .openapi('JsonUpload');
const FileUpload = z
  .object({
    file: z.any().openapi({ type: 'string', format: 'binary' }),
    bucket: z.string().optional(),
    id: z.string().uuid().optional(),
  })
  .openapi('FileUpload');
const errors = (...codes: number[]) =>
  Object.fromEntries(codes.map((code) => [code, { description: String(code), content: { 'application/json': { schema: Message } } }]));

/** The service's name: its document's title and its explorer page's. */
export const STORAGE_API_TITLE = 'Credential Support Service: storage';

/** Documents both API versions in `/api-docs/openapi.json` from zod schemas. */
export const registerStorageDocs = (app: OpenAPIHono<never> | OpenAPIHono<any>, settings: StorageSettings) => {
  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKey', { type: 'apiKey', in: 'header', name: 'X-API-Key' });
  for (const [version, integrity] of [
    ['3.0.0', { hash: z.string().openapi({ description: 'Lowercase hex SHA-256 of the stored plaintext' }) }],
    ['v4', { digestMultibase: z.string().openapi({ description: 'base58btc multibase of the sha2-256 multihash' }) }],
  ] as const) {
    for (const visibility of ['public', 'private'] as const) {
      const response = z.object({
        uri: z.string().url(),
        ...integrity,
        ...(visibility === 'private' ? { decryptionKey: z.string().openapi({ description: '64 hex characters; returned once' }) } : {}),
      });
      app.openAPIRegistry.registerPath({
        method: 'post',
        path: `/api/${version}/${visibility}`,
        tags: [`Storage ${version}`],
        summary: visibility === 'public' ? 'Store a JSON document or file as is' : 'Encrypt (AES-256-GCM) and store a JSON document or file',
        security: [{ apiKey: [] }],
        request: {
          body: {
            content: {
              'application/json': { schema: JsonUpload },
              'multipart/form-data': { schema: FileUpload },
            },
          },
        },
        responses: {
          201: { description: 'Stored', content: { 'application/json': { schema: response } } },
          ...errors(400, 401, 409, 413, 500),
        },
      });
    }
    app.openAPIRegistry.registerPath({
      method: 'get',
      path: `/api/${version}/{bucket}/{file}`,
      tags: [`Storage ${version}`],
      summary: 'Read stored content (no key needed: it is public or encrypted)',
      request: { params: z.object({ bucket: z.string(), file: z.string() }) },
      responses: { 200: { description: 'The stored bytes' }, 304: { description: 'Not modified' }, ...errors(404) },
    });
    app.openAPIRegistry.registerPath({
      method: 'delete',
      path: `/api/${version}/{bucket}/{id}`,
      tags: [`Storage ${version}`],
      summary: 'Delete every object of the bucket whose name starts with the id',
      security: [{ apiKey: [] }],
      request: { params: z.object({ bucket: z.string(), id: z.string().uuid() }) },
      responses: { 204: { description: 'Deleted' }, ...errors(400, 401, 404, 500) },
    });
  }
  app.doc31('/api-docs/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: STORAGE_API_TITLE,
      version: '4.0.0',
      description: `Buckets: ${settings.buckets.join(', ')}. Public and encrypted JSON documents and files.`,
    },
  });
};
