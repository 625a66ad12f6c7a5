import '@hono/zod-openapi';
import * as z from 'zod';
import type { RegistrarWithSchemes } from '../../core/registrars/registrar-repository.ts';
import { RegistrarSchema, toRegistrarResponse } from '../platform/embedded/registrar.ts';
import { SchemeSchema, toSchemeResponse } from '../platform/embedded/scheme.ts';
import { idText, nonBlankText, text, unpaddedText } from '../platform/fields.ts';

export const RegistrarWithSchemesSchema = RegistrarSchema.extend({ schemes: z.array(SchemeSchema) }).openapi(
  'RegistrarWithSchemes',
);

const registrarFields = {
  name: nonBlankText().openapi({ example: 'GS1' }),
  namespace: nonBlankText().openapi({ example: 'gs1', description: 'Grouping key for IDR publishing' }),
  url: unpaddedText('url').openapi({ example: 'https://www.gs1.org', description: 'Public http(s) URL' }),
};

export const CreateRegistrarBody = z
  .object({
    ...registrarFields,
    idrServiceInstanceId: idText().optional().openapi({ description: "The tenant's own or a system IDR instance" }),
  })
  .openapi('CreateRegistrar');

export const UpdateRegistrarBody = z
  .object({
    name: registrarFields.name.optional(),
    namespace: registrarFields.namespace.optional(),
    url: registrarFields.url.optional(),
    idrServiceInstanceId: idText().nullable().optional().openapi({ description: 'null clears it' }),
  })
  .openapi('UpdateRegistrar');

export const RegistrarIdParam = z.object({
  id: text().openapi({ param: { name: 'id', in: 'path' }, example: 'ckv9x2l0k0000qzrm8d1b2c3d' }),
});

export const toRegistrarWithSchemesResponse = (
  row: RegistrarWithSchemes,
): z.infer<typeof RegistrarWithSchemesSchema> => ({
  ...toRegistrarResponse(row),
  schemes: row.schemes.map(toSchemeResponse),
});
