import { ApiError } from '../../../core/errors.ts';

/** Rejected before any route handler (no credentials, token without `sub`): the spec's `{ error, message }`. */
export const unauthenticated = (message: string) => new ApiError(401, 'Unauthorised', undefined, { message });

/** A presented credential that does not verify: `{ error, code }`. */
export const invalidCredential = (message: string) => new ApiError(401, message, 'UNAUTHENTICATED');

export const missingGroupClaim = (claimName: string) =>
  new ApiError(403, `Access requires the "${claimName}" group claim`, 'TENANT_CLAIM_MISSING');
