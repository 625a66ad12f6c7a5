import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from './env.ts';
import { API_DOCS_PATH } from '../../core/service-kit/api-docs-page.ts';

/** The API's name: the document's title and the explorer page's. */
export const API_TITLE = 'Credential Support Service API';

/**
 * The OpenAPI document's own fields (everything but paths and components, which the routes give).
 * `servers` is this deployment's public origin (RI_APP_URL): the paths already carry `/api/v1`.
 */
export const apiDocumentFields = (appUrl: string) => ({
  openapi: '3.1.0',
  info: {
    title: API_TITLE,
    version: '1.0.0',
    description: 'Issue and verify UNTP verifiable credentials from your own master data.',
  },
  servers: [{ url: appUrl, description: 'This deployment (RI_APP_URL)' }],
});

/**
 * GET /api-docs/openapi.json, generated on first request (every route is registered by then) and kept: generating
 * it takes hundreds of milliseconds. Instead of `doc31`, which regenerates it each time and would answer a
 * generator failure with the raw error; a failure here goes to the error handler like any other.
 */
export const registerApiDocument = (app: OpenAPIHono<AppEnv>) => {
  const byAppUrl = new Map<string, string>();
  app.get(`${API_DOCS_PATH}/openapi.json`, (c) => {
    const { appUrl } = c.get('services').settings;
    let body = byAppUrl.get(appUrl);
    if (body === undefined) {
      body = JSON.stringify(app.getOpenAPI31Document(apiDocumentFields(appUrl)));
      byAppUrl.set(appUrl, body);
    }
    return c.body(body, 200, { 'Content-Type': 'application/json' });
  });
};
