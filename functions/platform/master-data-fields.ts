import '@hono/zod-openapi';
import * as z from 'zod';
import { IdentifierWithSchemeSchema, toIdentifierWithSchemeResponse } from './embedded/identifier.ts';
import { idArray, idText, text } from './fields.ts';

/**
 * Field and response pieces shared by organisations, facilities and products (one place for each):
 * identifier references and the identifier relations of single responses.
 */
export const primaryIdentifierIdField = () =>
  idText().openapi({
    description:
      "One of the tenant's identifiers; primary on at most one record of this kind (409); not also secondary",
  });

export const secondaryIdentifierIdsField = () =>
  idArray().openapi({ description: "The tenant's identifiers, each once; replaces the whole set on PATCH" });

export const RecordIdParam = z.object({
  id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: 'cm1n2b3v4c0000zxcvbnmasdf' }),
});

export const searchQuery = () =>
  text().optional().openapi({ description: 'Case-insensitive substring of the name or of an identifier value' });

export const identifierRelations = {
  primaryIdentifier: IdentifierWithSchemeSchema.nullable(),
  secondaryIdentifiers: z.array(IdentifierWithSchemeSchema),
};

type IdentifierWithScheme = Parameters<typeof toIdentifierWithSchemeResponse>[0];

export const toIdentifierRelations = (row: {
  primaryIdentifier: IdentifierWithScheme | null;
  secondaryIdentifiers: { identifier: IdentifierWithScheme }[];
}) => ({
  primaryIdentifier: row.primaryIdentifier ? toIdentifierWithSchemeResponse(row.primaryIdentifier) : null,
  secondaryIdentifiers: row.secondaryIdentifiers
    .map((s) => s.identifier)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map(toIdentifierWithSchemeResponse),
});

/** Bulk create bodies: a non-empty JSON array of items. */
export const bulkBody = <T extends z.ZodType>(item: T) =>
  z.array(item, { error: (i) => (i.input === undefined ? 'is required' : 'must be an array of objects') }).min(1, 'must contain at least one item');
