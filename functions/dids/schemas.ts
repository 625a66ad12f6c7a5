import '@hono/zod-openapi';
import * as z from 'zod';
import type { DidRow } from '../../core/dids/did-repository.ts';
import { ownershipFlag } from '../../core/tenancy/visibility.ts';
import { DID_METHODS, DID_STATUSES, DID_TYPES } from '../../db/schema/index.ts';
import { enumFilter } from '../platform/filters.ts';
import { bool, idText, nonBlankText, text } from '../platform/fields.ts';
import { ErrorResponseSchema, jsonResponse } from '../platform/openapi-responses.ts';
import { pageQuerySchema } from '../platform/pagination.ts';

const timestamps = {
  createdAt: z.string().openapi({ format: 'date-time' }),
  updatedAt: z.string().openapi({ format: 'date-time' }),
};

export const DidSchema = z
  .object({
    id: z.string().openapi({ example: 'ckv9x2l0k0000qzrm8d1b2c3d' }),
    did: z.string().openapi({ example: 'did:web:vc.example.com:acme' }),
    type: z.enum(DID_TYPES),
    method: z.enum(DID_METHODS),
    status: z.enum(DID_STATUSES),
    alias: z.string().nullable(),
    keyId: z.string().nullable(),
    name: z.string().nullable(),
    description: z.string().nullable(),
    isDefault: z.boolean(),
    serviceInstanceId: z.string().nullable().openapi({ description: 'null once the instance was force-deleted' }),
    isSystemDefault: z.boolean(),
    ...timestamps,
  })
  .openapi('Did');

const method = () =>
  z.enum(DID_METHODS, { error: (issue) => (issue.input === null ? 'must not be null' : issue.input === undefined ? 'is required' : 'must be DID_WEB') });

export const CreateDidBody = z
  .object({
    type: z.enum(['MANAGED', 'SELF_MANAGED'], {
      error: (issue) => (issue.input === null ? 'must not be null' : issue.input === undefined ? 'is required' : 'must be MANAGED or SELF_MANAGED'),
    }),
    method: method(),
    alias: nonBlankText().openapi({
      example: 'acme',
      description: 'MANAGED: a short name (only letters, digits and hyphens kept) under the VC service host. SELF_MANAGED: the full domain or domain and path.',
    }),
    name: nonBlankText().optional(),
    description: nonBlankText().optional(),
    isDefault: bool().optional(),
    serviceInstanceId: idText().optional().openapi({ description: "The tenant's own or a system VC instance; default: the tenant's primary, then the system default" }),
  })
  .openapi('CreateDid');

export const ImportDidBody = z
  .object({
    did: nonBlankText().openapi({ example: 'did:web:acme.example.com' }),
    method: method(),
    keyId: nonBlankText(),
    serviceInstanceId: idText(),
    name: nonBlankText().optional(),
    description: nonBlankText().optional(),
  })
  .openapi('ImportDid');

export const UpdateDidBody = z
  .object({
    name: nonBlankText().nullable().optional().openapi({ description: 'null clears it' }),
    description: nonBlankText().nullable().optional().openapi({ description: 'null clears it' }),
    isDefault: bool().optional(),
  })
  .openapi('UpdateDid');

export const DidListQuery = z.object({
  ...pageQuerySchema,
  type: enumFilter(DID_TYPES),
  status: enumFilter(DID_STATUSES),
  serviceInstanceId: z.string().optional(),
});

export const DidIdParam = z.object({
  id: text().openapi({ param: { name: 'id', in: 'path' }, example: 'ckv9x2l0k0000qzrm8d1b2c3d' }),
});

export const CheckSchema = z
  .object({ name: z.string(), result: z.enum(['PASSED', 'FAILED', 'SKIPPED']), message: z.string() })
  .openapi('DidVerificationCheck');

export const VerifyResultSchema = z
  .object({ verified: z.boolean(), did: DidSchema, checks: z.array(CheckSchema) })
  .openapi('DidVerification');

export const badGateway = { 502: jsonResponse(ErrorResponseSchema, 'The VC service or the hosting location did not answer as required') };

export const toDidResponse = (row: DidRow): z.infer<typeof DidSchema> => ({
  id: row.id,
  did: row.did,
  type: row.type,
  method: row.method,
  status: row.status,
  alias: row.alias,
  keyId: row.keyId,
  name: row.name,
  description: row.description,
  isDefault: row.isDefault,
  serviceInstanceId: row.serviceInstanceId,
  ...ownershipFlag(row),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});
