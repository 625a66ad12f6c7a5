import '@hono/zod-openapi';
import * as z from 'zod';
import { NESTING_MESSAGE, nestingDepth, TEMPLATE_MAX_DEPTH } from '../../core/render-templates/template-limits.ts';
import { RENDER_METHOD_TYPES } from '../../db/schema/index.ts';
import { bool, idText, nonBlankText, text } from '../platform/fields.ts';

const serverManaged = () => z.unknown().refine((v) => v === undefined, 'is server-managed and cannot be sent').optional();
const managed = { storageUrl: serverManaged(), digestMultibase: serverManaged(), hash: serverManaged() };
const storageOptions = () =>
  z.object({ serviceInstanceId: idText().optional() }, { error: 'must be an object' }).openapi({ description: 'Storage instance (default: the tenant’s primary)' });
const template = () => nonBlankText('template').refine((html) => nestingDepth(html) <= TEMPLATE_MAX_DEPTH, NESTING_MESSAGE).openapi({ description: 'HTML with {{placeholders}}; sanitised, then stored in the storage service' });

export const CreateRenderTemplateBody = z
  .object({
    name: nonBlankText(),
    dataModelId: idText(),
    renderMethodType: z.enum(RENDER_METHOD_TYPES, {
      error: (i) => (i.input === undefined ? 'is required' : `must be one of ${RENDER_METHOD_TYPES.join(', ')}`),
    }),
    template: template(),
    isDefault: bool().optional(),
    inline: bool().optional(),
    mediaType: nonBlankText().nullish().openapi({ description: 'RenderTemplate2024 only; default text/html (null = omitted)' }),
    mediaQuery: text().nullish().openapi({ description: 'RenderTemplate2024 only (null = omitted)' }),
    storageOptions: storageOptions().optional(),
    ...managed,
  })
  .openapi('CreateRenderTemplate');

export const UpdateRenderTemplateBody = z
  .object({
    name: nonBlankText().optional(),
    template: template().optional(),
    isDefault: bool().optional(),
    inline: bool().optional(),
    mediaType: nonBlankText().nullable().optional().openapi({ description: 'null resets to text/html' }),
    mediaQuery: text().nullable().optional().openapi({ description: 'null clears' }),
    storageOptions: storageOptions().optional().openapi({ description: 'Read only together with template' }),
    renderMethodType: z.unknown().refine((v) => v === undefined, 'is immutable').optional(),
    dataModelId: z.unknown().refine((v) => v === undefined, 'is immutable').optional(),
    ...managed,
  })
  .openapi('UpdateRenderTemplate');
export const PATCHABLE = ['name', 'template', 'isDefault', 'inline', 'mediaType', 'mediaQuery'];

export const TemplateIdParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) });
