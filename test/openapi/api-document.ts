import { buildApp } from '../../functions/app.ts';
import { apiDocumentFields } from '../../functions/platform/openapi-document.ts';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface Operation {
  operationId?: string;
  requestBody?: { content?: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
  parameters?: Array<{ name: string; in: string; schema?: unknown; example?: unknown; required?: boolean }>;
}
export interface MediaType {
  schema?: unknown;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}
export interface ApiDocument {
  openapi: string;
  servers?: Array<{ url: string }>;
  paths: Record<string, Partial<Record<(typeof HTTP_METHODS)[number], Operation>>>;
  components: { schemas: Record<string, unknown> };
}

/** The OpenAPI document of the whole API (what /api-docs/openapi.json serves), built without a server. */
export const buildApiDocument = (appUrl = 'http://localhost:3003'): ApiDocument => {
  const app = buildApp(async (_c, next) => next());
  return app.getOpenAPI31Document(apiDocumentFields(appUrl)) as unknown as ApiDocument;
};

/** Every operation of a document with its method and path. */
export const operationsOf = (doc: ApiDocument) =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    HTTP_METHODS.flatMap((method) => (item[method] ? [{ method, path, operation: item[method] }] : [])),
  );
