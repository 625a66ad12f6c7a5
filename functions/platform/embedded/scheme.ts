import '@hono/zod-openapi';
import * as z from 'zod';
import type { findScheme, SchemeRow } from '../../../core/schemes/scheme-repository.ts';
import { ownershipFlag } from '../../../core/tenancy/visibility.ts';
import { QualifierSchema, RegistrarSchema, toQualifierResponse, toRegistrarResponse } from './registrar.ts';
import { iso, timestamps } from './timestamps.ts';

export const SchemeSchema = z
  .object({
    id: z.string().openapi({ example: 'cq8w1x2y3z0000abcdefghijk' }),
    registrarId: z.string(),
    name: z.string().openapi({ example: 'Global Trade Item Number' }),
    primaryKey: z.string().openapi({ example: '01' }),
    validationPattern: z.string().openapi({ example: '^\\d{14}$' }),
    linkTemplate: z.string().openapi({ example: '/{primaryKey}/{value}' }),
    idrServiceInstanceId: z.string().nullable(),
    isSystemDefault: z.boolean(),
    qualifiers: z.array(QualifierSchema),
    ...timestamps,
  })
  .openapi('IdentifierScheme');

export const SchemeWithRegistrarSchema = SchemeSchema.extend({ registrar: RegistrarSchema }).openapi(
  'IdentifierSchemeWithRegistrar',
);

type QualifierRow = z.infer<typeof QualifierSchema>;
type SchemeWithQualifiers = SchemeRow & { qualifiers: QualifierRow[] };
type SchemeWithRegistrar = NonNullable<Awaited<ReturnType<typeof findScheme>>>;

/** A list item: the scheme with its qualifiers, without the registrar object. */
export const toSchemeResponse = (row: SchemeWithQualifiers): z.infer<typeof SchemeSchema> => ({
  id: row.id,
  registrarId: row.registrarId,
  name: row.name,
  primaryKey: row.primaryKey,
  validationPattern: row.validationPattern,
  linkTemplate: row.linkTemplate,
  idrServiceInstanceId: row.idrServiceInstanceId,
  ...ownershipFlag(row),
  qualifiers: row.qualifiers.map(toQualifierResponse),
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

/** The scheme with its qualifiers and its registrar (scheme single responses, embedded in identifiers). */
export const toSchemeWithRegistrarResponse = (row: SchemeWithRegistrar): z.infer<typeof SchemeWithRegistrarSchema> => ({
  ...toSchemeResponse(row),
  registrar: toRegistrarResponse(row.registrar),
});
