import '@hono/zod-openapi';
import * as z from 'zod';

export const ErrorResponseSchema = z
  .object({
    error: z.string().openapi({ example: 'name: must contain a non-whitespace character' }),
    code: z.string().optional().openapi({ example: 'VALIDATION_FAILED' }),
  })
  .openapi('ErrorResponse');

export const AuthErrorResponseSchema = z
  .object({ error: z.string().openapi({ example: 'Unauthorised' }), message: z.string() })
  .openapi('AuthErrorResponse');

/** A JSON response; `example` (checked against the schema's type here, and against the schema by test/openapi) is one whole body. */
const json = <T extends z.ZodType>(schema: T, description: string, example?: z.input<T>) => ({
  description,
  content: { 'application/json': { schema, ...(example === undefined ? {} : { example }) } },
});

/** Shared error responses, so each route lists only the statuses it can produce. */
export const errorResponses = {
  400: json(ErrorResponseSchema, 'Validation failed; the message names the field'),
  401: json(z.union([ErrorResponseSchema, AuthErrorResponseSchema]), 'No valid session or bearer token'),
  403: json(ErrorResponseSchema, 'Forbidden: closed tenant mode without group claim, or a read-only system record'),
  404: json(ErrorResponseSchema, 'Not found or not visible to the tenant'),
  409: json(ErrorResponseSchema, 'Conflict'),
  413: json(ErrorResponseSchema, 'Request body too large'),
  415: json(ErrorResponseSchema, 'Content-Type must be application/json'),
  422: json(ErrorResponseSchema, 'An upstream service refused the request (`<SERVICE>_REJECTED`), or the input is too costly to process (e.g. `TEMPLATE_TOO_COMPLEX`)'),
  429: json(ErrorResponseSchema, 'Too many requests: `TENANT_BUSY` when the tenant already has its heavy requests running and waiting'),
  500: json(ErrorResponseSchema, 'Unexpected error; the message quotes the correlation id'),
  502: json(ErrorResponseSchema, 'An upstream service is unreachable or failed (`<SERVICE>_UNAVAILABLE`); no internal detail'),
} as const;

export const pick = <K extends keyof typeof errorResponses>(...codes: K[]) =>
  Object.fromEntries(codes.map((code) => [code, errorResponses[code]])) as Pick<typeof errorResponses, K>;

export const jsonBody = <T extends z.ZodType>(schema: T, description = 'JSON body', example?: z.input<T>) => ({
  required: true,
  description,
  content: { 'application/json': { schema, ...(example === undefined ? {} : { example }) } },
});

export { json as jsonResponse };
