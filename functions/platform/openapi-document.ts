/**
 * The OpenAPI document's own fields (everything but paths and components, which the routes give).
 * `servers` is this deployment's public origin (RI_APP_URL): the paths already carry `/api/v1`.
 */
export const apiDocumentFields = (appUrl: string) => ({
  openapi: '3.1.0',
  info: {
    title: 'Credential Support Service API',
    version: '1.0.0',
    description: 'Issue and verify UNTP verifiable credentials from your own master data.',
  },
  servers: [{ url: appUrl, description: 'This deployment (RI_APP_URL)' }],
});
