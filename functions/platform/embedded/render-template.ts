import '@hono/zod-openapi';
import * as z from 'zod';
import type { RenderTemplateRow } from '../../../core/render-templates/template-repository.ts';
import { ownershipFlag } from '../../../core/tenancy/visibility.ts';
import { RENDER_METHOD_TYPES } from '../../../db/schema/index.ts';

/** A render template's metadata (render-template responses, embedded in a data model's detail). */
export const RenderTemplateSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    dataModelId: z.string(),
    renderMethodType: z.enum(RENDER_METHOD_TYPES),
    isDefault: z.boolean(),
    inline: z.boolean().nullable(),
    mediaType: z.string().nullable(),
    mediaQuery: z.string().nullable(),
    storageServiceInstanceId: z.string().nullable(),
    storageUrl: z.string(),
    digestMultibase: z.string(),
    isSystemDefault: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('RenderTemplate');

export const toRenderTemplateResponse = (row: RenderTemplateRow): z.infer<typeof RenderTemplateSchema> => ({
  id: row.id,
  name: row.name,
  dataModelId: row.dataModelId,
  renderMethodType: row.renderMethodType,
  isDefault: row.isDefault,
  inline: row.inline,
  mediaType: row.mediaType,
  mediaQuery: row.mediaQuery,
  storageServiceInstanceId: row.storageServiceInstanceId,
  storageUrl: row.storageUrl,
  digestMultibase: row.digestMultibase,
  ...ownershipFlag(row),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});
