import '@hono/zod-openapi';
import * as z from 'zod';
import type { DataModelRow } from '../../core/data-models/data-model-repository.ts';
import { ownershipFlag } from '../../core/tenancy/visibility.ts';
import { idText, nonBlankText, unpaddedText } from '../platform/fields.ts';

export const DataModelSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    credentialType: z.string(),
    version: z.string(),
    isExtension: z.boolean(),
    parentConfigId: z.string().nullable(),
    schemaUrl: z.string(),
    contextUrl: z.string(),
    websiteUrl: z.string().nullable(),
    isSystemDefault: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('DataModel');

export const DataModelDetailSchema = DataModelSchema.extend({
  parentConfig: DataModelSchema.nullable(),
  extensions: z.array(DataModelSchema),
  renderTemplates: z.array(z.record(z.string(), z.unknown())),
}).openapi('DataModelDetail');

const url = (what: string) => unpaddedText('url').openapi({ description: `${what}: absolute http(s), no userinfo, public unless allowed` });

export const CreateDataModelBody = z
  .object({
    name: nonBlankText(),
    credentialType: nonBlankText().openapi({ description: 'Immutable; need not match the parent’s' }),
    version: nonBlankText().openapi({ description: 'Immutable', example: '0.7.0' }),
    parentConfigId: idText().openapi({ description: 'A visible core model; immutable' }),
    schemaUrl: url('JSON Schema URL'),
    contextUrl: url('JSON-LD context URL (stored, not fetched)'),
    websiteUrl: url('Documentation URL').optional(),
  })
  .openapi('CreateDataModel');

const IMMUTABLE = ['credentialType', 'version', 'isExtension', 'parentConfigId'] as const;
const immutable = () => z.unknown().refine((v) => v === undefined, 'is immutable').optional();

export const UpdateDataModelBody = z
  .object({
    name: nonBlankText().optional(),
    schemaUrl: url('JSON Schema URL').optional(),
    contextUrl: url('JSON-LD context URL').optional(),
    websiteUrl: url('Documentation URL').optional(),
    ...Object.fromEntries(IMMUTABLE.map((k) => [k, immutable()])),
  })
  .openapi('UpdateDataModel');
export const RECOGNISED_PATCH_FIELDS = ['name', 'schemaUrl', 'contextUrl', 'websiteUrl'];

export const DataModelIdParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) });

export const toDataModelResponse = (row: DataModelRow): z.infer<typeof DataModelSchema> => ({
  id: row.id,
  name: row.name,
  credentialType: row.credentialType,
  version: row.version,
  isExtension: row.isExtension,
  parentConfigId: row.parentConfigId,
  schemaUrl: row.schemaUrl,
  contextUrl: row.contextUrl,
  websiteUrl: row.websiteUrl,
  ...ownershipFlag(row),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});
