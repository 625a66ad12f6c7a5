import type { Context } from 'hono';
import { ApiError } from '../../core/errors.ts';
import { FAILURE_STATUS } from '../../core/verification/outcome.ts';
import { verifyCredential } from '../../core/verification/verify-credential.ts';
import type { AppEnv } from '../platform/env.ts';
import { requestDeps } from '../platform/request-deps.ts';
import type { z } from '@hono/zod-openapi';
import type { VerifyRequest, VerifyResultSchema } from './schemas.ts';

/** Runs the pipeline for a request (GET or POST) and renders its report: 200 with the verdict, else the failure's status and code. */
export const verificationResponse = async (c: Context<AppEnv>, request: VerifyRequest) => {
  const report = await verifyCredential({ ...requestDeps(c), systemVc: c.get('admittedSystemVc') }, request);
  if (!report.completed) {
    const { code, message } = report.failure;
    throw new ApiError(FAILURE_STATUS[code], message, code === 'URI_NOT_ALLOWED' ? 'VALIDATION_FAILED' : code);
  }
  const { verified, credential, decodedCredential, warnings, error } = report.verdict;
  const body: z.infer<typeof VerifyResultSchema> = {
    verified,
    credential,
    ...(decodedCredential ? { decodedCredential } : {}),
    ...(warnings.length ? { warnings } : {}),
    ...(error ? { error } : {}),
  };
  // The answer may hold a decrypted credential: no cache along the way may keep it.
  return c.json(body, 200, { 'cache-control': 'no-store' });
};
