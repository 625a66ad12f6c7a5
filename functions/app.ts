import { recordHttpMetrics } from './platform/http-metrics.ts';
import { traceRequest } from './platform/request-trace.ts';
import { OpenAPIHono } from '@hono/zod-openapi';
import { authApp } from './auth/index.ts';
import { healthApp } from './health/index.ts';
import type { AppEnv } from './platform/env.ts';
import { registerApiDocsPage } from '../core/service-kit/api-docs-page.ts';
import { API_TITLE, registerApiDocument } from './platform/openapi-document.ts';
import { swaggerUiFilesFromPackage } from '../core/service-kit/swagger-ui-files.ts';
import { securitySchemes } from './platform/openapi-security.ts';
import { validationHook } from './platform/validation-hook.ts';
import { PartitionedRouter } from './platform/partitioned-router.ts';
import { applyPlatform, type ServicesProvider } from './platform/with-platform.ts';
import { identifiersApp } from './identifiers/index.ts';
import { organisationsApp } from './organisations/index.ts';
import { facilitiesApp } from './facilities/index.ts';
import { productsApp } from './products/index.ts';
import { serviceInstancesApp } from './service-instances/index.ts';
import { dataModelsApp } from './data-models/index.ts';
import { renderTemplatesApp } from './render-templates/index.ts';
import { cvcApp } from './cvc/index.ts';
import { registrarsApp } from './registrars/index.ts';
import { schemesApp } from './schemes/index.ts';
import { didsApp } from './dids/index.ts';
import { credentialStatusApp } from './credential-status/index.ts';
import { verifyPageApp } from './verify-page/index.ts';
import { credentialBatchesApp } from './credential-batches/index.ts';
import { credentialVerificationApp } from './credential-verification/index.ts';
import { credentialsApp } from './credentials/index.ts';
import { libraryApp } from './library/index.ts';
import { consoleApp } from './console/index.ts';

export const API_PREFIX = '/api/v1';

/** Routes under /api/v1 that need no session or token. */
const isPublicApiPath = (path: string) => path === `${API_PREFIX}/credentials/verify`;

/**
 * Every resource group, mounted at its path under /api/v1, in this order. Later groups are added here.
 * `/credentials/verify` stays before any `/credentials` group, whose `/{id}` routes would otherwise take `verify`.
 */
const apiGroups = {
  '/credentials/verify': credentialVerificationApp,
  '/registrars': registrarsApp,
  '/schemes': schemesApp,
  '/identifiers': identifiersApp,
  '/organisations': organisationsApp,
  '/facilities': facilitiesApp,
  '/products': productsApp,
  '/services': serviceInstancesApp,
  '/data-models': dataModelsApp,
  '/render-templates': renderTemplatesApp,
  '/cvc': cvcApp,
  '/dids': didsApp,
  '/credentials/batches': credentialBatchesApp,
  // After '/credentials/verify' and '/credentials/batches': their routes must answer before '/credentials/{id}'.
  '/credentials': credentialsApp,
  '/library': libraryApp,
} as const;

/**
 * Groups that share a path prefix with a group of `apiGroups`, mounted before it: the status routes
 * live under /credentials/{id}/status… beside the credentials group's own routes.
 */
const sharedPrefixGroups = [['/credentials', credentialStatusApp]] as const;

/** The whole web API composed from its groups (Node entry, tests, container). */
export const buildApp = (provideServices: ServicesProvider) => {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook, router: new PartitionedRouter(API_PREFIX) });
  app.use('*', traceRequest, recordHttpMetrics);
  applyPlatform(app, provideServices, API_PREFIX, { publicPaths: isPublicApiPath });
  app.route('/api/health', healthApp);
  app.route('/auth', authApp);
  for (const [path, group] of sharedPrefixGroups) app.route(`${API_PREFIX}${path}`, group);
  app.route('/verify', verifyPageApp);
  app.route('/console', consoleApp);
  for (const [path, group] of Object.entries(apiGroups)) app.route(`${API_PREFIX}${path}`, group);

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', securitySchemes.bearerAuth);
  app.openAPIRegistry.registerComponent('securitySchemes', 'sessionCookie', securitySchemes.sessionCookie);
  registerApiDocument(app);
  registerApiDocsPage(app, { title: API_TITLE, files: swaggerUiFilesFromPackage() });
  app.get('/', (c) => c.redirect('/api-docs', 302));
  return app;
};
