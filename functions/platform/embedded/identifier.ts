import '@hono/zod-openapi';
import * as z from 'zod';
import type { findIdentifier, IdentifierRow } from '../../../core/identifiers/identifier-repository.ts';
import { SchemeWithRegistrarSchema, toSchemeWithRegistrarResponse } from './scheme.ts';
import { iso, timestamps } from './timestamps.ts';

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

export const toIdentifierResponse = (row: IdentifierRow): z.infer<typeof IdentifierSchema> => ({
  id: row.id,
  schemeId: row.schemeId,
  value: row.value,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

type IdentifierWithScheme = NonNullable<Awaited<ReturnType<typeof findIdentifier>>>;

export const toIdentifierWithSchemeResponse = (row: IdentifierWithScheme): z.infer<typeof IdentifierWithSchemeSchema> => ({
  ...toIdentifierResponse(row),
  scheme: toSchemeWithRegistrarResponse(row.scheme),
});
