import { notFoundError } from './errors.ts';

/**
 * VCkit routes some clients call that this service does not serve, each with the route that does the
 * job here. Refused with 404 `not_found:` (what VCkit's own error handler answers for that prefix), naming the replacement.
 */
export const REPLACED_ROUTES: Record<string, string> = {
  'POST /v2/credentials/status': 'POST /agent/setBitstringStatus to set a status, POST /agent/checkBitstringStatus to read one',
  'POST /agent/routeCreationVerifiableCredential': 'POST /v2/credentials/issue',
  'POST /credentials/issue': 'POST /v2/credentials/issue',
  'POST /credentials/verify': 'POST /v2/credentials/verify (body { verifiableCredential }) or POST /agent/routeVerificationCredential (body { credential })',
  'POST /v1/credentials/issue': 'POST /v2/credentials/issue',
  'POST /v1/credentials/verify': 'POST /v2/credentials/verify',
};

export const replacedRoute = (method: string, path: string) => {
  const route = `${method} ${path}`;
  const replacement = Object.hasOwn(REPLACED_ROUTES, route) ? REPLACED_ROUTES[route] : undefined;
  return replacement === undefined ? undefined : notFoundError(`${route} is not served by this service; use ${replacement}`);
};
