import '@hono/zod-openapi';
import * as z from 'zod';
import { LEGACY_HASH, sha256OfMultibase } from '../../core/verification/digest.ts';
import { publicUrlProblem } from '../../core/net/public-url.ts';
import { ErrorResponseSchema, jsonResponse } from '../platform/openapi-responses.ts';
import { aesKeyHex, TEXT_LIMITS, typeError } from '../platform/fields.ts';
import { verifyResultExample } from './openapi-examples.ts';

const notAString = typeError('a string');

/** The verification request: the same names in a JSON body (POST) and in the query (GET). */
const fields = {
  uri: z
    .string({ error: notAString })
    .max(TEXT_LIMITS.url, `must be at most ${TEXT_LIMITS.url} characters`)
    .superRefine((value, ctx) => {
      // Scheme and userinfo here; private addresses are judged with the setting by the pipeline.
      const problem = publicUrlProblem(value, true);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .openapi({ example: 'https://storage.example.com/api/v4/documents/3f1c….json', description: 'Where the credential (or its encrypted envelope) is stored: absolute http(s), no userinfo, public addresses only unless FETCH_ALLOW_PRIVATE_URLS is true' }),
  digestMultibase: z
    .string({ error: notAString })
    .max(256, 'must be at most 256 characters')
    .refine((value) => sha256OfMultibase(value) !== undefined, 'must be a multibase-encoded sha2-256 multihash')
    .optional()
    .openapi({ example: 'zQmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG', description: 'SHA-256 of the stored document as a multibase multihash (what the storage service returns)' }),
  hash: z
    .string({ error: notAString })
    .max(64, 'must be 64 lowercase hexadecimal characters')
    .regex(LEGACY_HASH, 'must be 64 lowercase hexadecimal characters')
    .optional()
    .openapi({ description: 'Legacy SHA-256 of the stored document as lowercase hex' }),
  decryptionKey: aesKeyHex()
    .optional()
    .openapi({ description: 'AES-256-GCM key (64 hex characters) of an encrypted credential; never stored or logged' }),
};

export const VerifyBody = z.object(fields).openapi('VerifyCredentialRequest');
export const VerifyQuery = z.object(fields);
export type VerifyRequest = z.infer<typeof VerifyBody>;

export const VerifyResultSchema = z
  .object({
    verified: z.boolean(),
    credential: z.record(z.string(), z.unknown()).openapi({ description: 'The EnvelopedVerifiableCredential as retrieved (after decryption)' }),
    decodedCredential: z.record(z.string(), z.unknown()).optional().openapi({ description: 'The JWS payload: the credential itself' }),
    warnings: z.array(z.string()).optional(),
    error: z
      .object({ type: z.enum(['integrity', 'status', 'temporal']), message: z.string() })
      .optional()
      .openapi({
        description:
          "Only when not verified: integrity (signature, or the issuer's DID not resolved), status (revoked, suspended, or the status list unreadable or not verified) or temporal (outside validFrom–validUntil); message is a fixed sentence per cause",
      }),
  })
  .openapi('VerifyCredentialResult');

const TooManySchema = z
  .object({ error: z.string(), code: z.enum(['RATE_LIMITED', 'VERIFY_BUSY']) })
  .openapi('VerifyTooManyRequests');

export const verifyResponses = {
  200: jsonResponse(VerifyResultSchema, 'The credential was retrieved and checked: `verified` says whether it passed', verifyResultExample),
  400: jsonResponse(ErrorResponseSchema, 'Bad input, naming the field; or a uri (or a redirect) to a private or reserved address when not allowed'),
  422: jsonResponse(
    ErrorResponseSchema,
    'The credential could not be checked: DECRYPTION_REQUIRED, DECRYPTION_FAILED, ENVELOPE_INVALID, DECRYPTED_NOT_JSON, DIGEST_MISMATCH, UNSUPPORTED_CREDENTIAL_TYPE, INVALID_RESPONSE',
  ),
  429: {
    ...jsonResponse(TooManySchema, 'Too many requests from this client (RATE_LIMITED) or verifications in progress (VERIFY_BUSY)'),
    headers: z.object({ 'Retry-After': z.string().openapi({ description: 'Seconds to wait before retrying' }) }),
  },
  500: jsonResponse(ErrorResponseSchema, 'Unexpected error; the message quotes the correlation id'),
  502: jsonResponse(ErrorResponseSchema, 'The source could not be read (UPSTREAM_ERROR) or the VC service is unavailable (VC_SERVICE_ERROR)'),
} as const;
