import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { verifyDid } from '../../core/dids/did-operations.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requestDeps } from '../platform/request-deps.ts';
import { didVerifiedExample } from './openapi-examples.ts';
import { DidIdParam, toDidResponse, VerifyResultSchema } from './schemas.ts';

export const verifyDidRoute = createRoute({
  method: 'post',
  operationId: 'verifyDid',
  path: '/{id}/verify',
  tags: ['DIDs'],
  summary: 'Run the verification checks (Resolve, HTTPS, Structure, Identity match, Key material, JSON-LD validity) and set the status',
  description:
    'UNVERIFIED, VERIFIED and VERIFICATION_FAILED DIDs become VERIFIED when every check passes, else VERIFICATION_FAILED; a MANAGED (ACTIVE) DID keeps its status. 400 without a status change for the DEFAULT DID, an unparseable stored DID or an unsupported method.',
  security: guarded,
  request: { params: DidIdParam },
  responses: {
    200: jsonResponse(VerifyResultSchema, 'Each check with its result, and the DID with its new status', didVerifiedExample),
    ...pick(400, 401, 403, 404, 500),
  },
});

export const registerVerifyDid = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(verifyDidRoute, async (c) => {
    const { did, verified, checks } = await verifyDid(requestDeps(c), c.get('principal').tenantId, c.req.valid('param').id);
    return c.json({ verified, did: toDidResponse(did), checks }, 200);
  });
