import { z } from '@hono/zod-openapi';
import type { findIdentifier, IdentifierRow } from '../../core/identifiers/identifier-repository.ts';
import { idText, nonBlankText, text } from '../platform/fields.ts';
import { SchemeWithRegistrarSchema, toSchemeWithRegistrarResponse } from '../schemes/schemas.ts';

const timestamps = {
  createdAt: z.string().openapi({ format: 'date-time' }),
  updatedAt: z.string().openapi({ format: 'date-time' }),
};

export const IdentifierSchema = z
  .object({
    id: z.string().openapi({ example: 'cm1n2b3v4c0000zxcvbnmasdf' }),
    schemeId: z.string(),
    value: z.string().openapi({ example: '09520123456788' }),
    ...timestamps,
  })
  .openapi('Identifier');

export const IdentifierWithSchemeSchema = IdentifierSchema.extend({ scheme: SchemeWithRegistrarSchema }).openapi(
  'IdentifierWithScheme',
);

const value = () =>
  nonBlankText().openapi({ example: '09520123456788', description: "Must match the scheme's validationPattern" });

export const CreateIdentifierBody = z
  .object({
    schemeId: idText().openapi({ description: "The tenant's own or a system scheme" }),
    value: value(),
  })
  .openapi('CreateIdentifier');

export const UpdateIdentifierBody = z.object({ value: value().optional() }).openapi('UpdateIdentifier');

export const IdentifierIdParam = z.object({
  id: text().openapi({ param: { name: 'id', in: 'path' }, example: 'cm1n2b3v4c0000zxcvbnmasdf' }),
});

const iso = (date: Date) => date.toISOString();

export const toIdentifierResponse = (row: IdentifierRow): z.infer<typeof IdentifierSchema> => ({
  id: row.id,
  schemeId: row.schemeId,
  value: row.value,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

type IdentifierWithScheme = NonNullable<Awaited<ReturnType<typeof findIdentifier>>>;

export const toIdentifierWithSchemeResponse = (
  row: IdentifierWithScheme,
): z.infer<typeof IdentifierWithSchemeSchema> => ({
  ...toIdentifierResponse(row),
  scheme: toSchemeWithRegistrarResponse(row.scheme),
});
