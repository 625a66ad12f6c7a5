import '@hono/zod-openapi';
import * as z from 'zod';
import { badRequest } from '../../core/errors.ts';
import { CORE_TYPE_CODE_LIST, type CoreTypeCode } from '../../core/library/credential-types.ts';
import type { LibraryFilters, LibrarySort } from '../../core/library/record-queries.ts';
import { RUN_SUMMARIES } from '../../db/schema/index.ts';
import { booleanFilter, enumFilter } from '../platform/filters.ts';
import { pageQuerySchema } from '../platform/pagination.ts';

const SORTS = ['issuedAt:asc', 'issuedAt:desc', 'createdAt:asc', 'createdAt:desc'] as const;
const repeatable = (description: string) =>
  z.union([z.string(), z.array(z.string())]).optional().openapi({ description: `${description} Repeat the parameter for several (any of them matches).` });

/** GET /library query: the peer's filters (§4.2). `type`, `tag` and `excludeTag` may repeat. */
export const LibraryListQuery = z.object({
  ...pageQuerySchema,
  type: repeatable(`Core credential type: ${CORE_TYPE_CODE_LIST.join(', ')}.`),
  origin: enumFilter(['native', 'external'] as const),
  organisationId: z.string().optional(),
  facilityId: z.string().optional(),
  productId: z.string().optional(),
  issuer: z.string().optional().openapi({ description: 'Issuer name (any case) or issuer DID' }),
  encrypted: booleanFilter(),
  status: enumFilter(RUN_SUMMARIES),
  issuedFrom: z.string().optional().openapi({ description: 'First UTC day of issue, YYYY-MM-DD' }),
  issuedTo: z.string().optional().openapi({ description: 'Last UTC day of issue, YYYY-MM-DD' }),
  sort: enumFilter(SORTS),
  tag: repeatable('Records carrying this tag.'),
  excludeTag: repeatable('Records not carrying this tag (exclusion wins over tag).'),
  q: z.string().optional().openapi({ description: 'Free-text search is not offered yet: 400 FREE_TEXT_SEARCH_DEFERRED' }),
});
type Query = z.infer<typeof LibraryListQuery>;

const asList = (value: string | string[] | undefined) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar day (YYYY-MM-DD) as its UTC midnight; anything else is a 400 naming the parameter. */
const parseDay = (field: string, value: string): Date => {
  const match = DAY.exec(value);
  const day = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : undefined;
  if (!day || day.toISOString().slice(0, 10) !== value) throw badRequest(`${field}: must be a calendar date YYYY-MM-DD`);
  return day;
};

/** The list query as repository filters and sort. */
export const parseLibraryQuery = (query: Query): { filters: LibraryFilters; sort: LibrarySort } => {
  if (query.q !== undefined) throw badRequest('q: free-text search is not available yet', 'FREE_TEXT_SEARCH_DEFERRED');
  const types = asList(query.type);
  types.forEach((type, i) => {
    if (!(CORE_TYPE_CODE_LIST as string[]).includes(type)) {
      throw badRequest(`type${types.length > 1 ? `[${i}]` : ''}: must be one of ${CORE_TYPE_CODE_LIST.join(', ')}`);
    }
  });
  const from = query.issuedFrom === undefined ? undefined : parseDay('issuedFrom', query.issuedFrom);
  const to = query.issuedTo === undefined ? undefined : parseDay('issuedTo', query.issuedTo);
  if (from && to && from > to) throw badRequest('issuedTo: must not be before issuedFrom');
  const emptyTag = (field: string, values: string[]) => {
    if (values.some((v) => v.length === 0)) throw badRequest(`${field}: must not be empty`);
    return values;
  };
  return {
    filters: {
      types: types as CoreTypeCode[],
      origin: query.origin,
      organisationId: query.organisationId,
      facilityId: query.facilityId,
      productId: query.productId,
      issuer: query.issuer,
      encrypted: query.encrypted,
      status: query.status,
      issuedFrom: from,
      issuedBefore: to ? new Date(to.getTime() + 86_400_000) : undefined,
      tags: emptyTag('tag', asList(query.tag)),
      excludeTags: emptyTag('excludeTag', asList(query.excludeTag)),
    },
    sort: query.sort ?? 'issuedAt:desc',
  };
};
