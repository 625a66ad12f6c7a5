import { z } from '@hono/zod-openapi';
import type { RegistrarRow, RegistrarWithSchemes } from '../../core/registrars/registrar-repository.ts';
import { ownershipFlag } from '../../core/tenancy/visibility.ts';
import { idText, nonBlankText, text, unpaddedText } from '../platform/fields.ts';

const timestamps = {
  createdAt: z.string().openapi({ format: 'date-time' }),
  updatedAt: z.string().openapi({ format: 'date-time' }),
};

export const QualifierSchema = z
  .object({
    id: z.string(),
    key: z.string(),
    description: z.string(),
    validationPattern: z.string(),
    order: z.number().int(),
  })
  .openapi('Qualifier');

export const NestedSchemeSchema = z
  .object({
    id: z.string(),
    registrarId: z.string(),
    name: z.string(),
    primaryKey: z.string(),
    validationPattern: z.string(),
    linkTemplate: z.string(),
    idrServiceInstanceId: z.string().nullable(),
    isSystemDefault: z.boolean(),
    qualifiers: z.array(QualifierSchema),
    ...timestamps,
  })
  .openapi('RegistrarScheme');

export const RegistrarSchema = z
  .object({
    id: z.string().openapi({ example: 'ckv9x2l0k0000qzrm8d1b2c3d' }),
    name: z.string().openapi({ example: 'GS1' }),
    namespace: z.string().openapi({ example: 'gs1' }),
    url: z.string().openapi({ example: 'https://www.gs1.org' }),
    idrServiceInstanceId: z.string().nullable(),
    isSystemDefault: z.boolean(),
    ...timestamps,
  })
  .openapi('Registrar');

export const RegistrarWithSchemesSchema = RegistrarSchema.extend({ schemes: z.array(NestedSchemeSchema) }).openapi(
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

const iso = (date: Date) => date.toISOString();

export const toRegistrarResponse = (row: RegistrarRow): z.infer<typeof RegistrarSchema> => ({
  id: row.id,
  name: row.name,
  namespace: row.namespace,
  url: row.url,
  idrServiceInstanceId: row.idrServiceInstanceId,
  ...ownershipFlag(row),
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});


export const toRegistrarWithSchemesResponse = (
  row: RegistrarWithSchemes,
): z.infer<typeof RegistrarWithSchemesSchema> => ({
  ...toRegistrarResponse(row),
  schemes: row.schemes.map((scheme) => ({
    id: scheme.id,
    registrarId: scheme.registrarId,
    name: scheme.name,
    primaryKey: scheme.primaryKey,
    validationPattern: scheme.validationPattern,
    linkTemplate: scheme.linkTemplate,
    idrServiceInstanceId: scheme.idrServiceInstanceId,
    ...ownershipFlag(scheme),
    qualifiers: scheme.qualifiers.map(({ id, key, description, validationPattern, order }) => ({
      id,
      key,
      description,
      validationPattern,
      order,
    })),
    createdAt: iso(scheme.createdAt),
    updatedAt: iso(scheme.updatedAt),
  })),
});
