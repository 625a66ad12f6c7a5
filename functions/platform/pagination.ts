import '@hono/zod-openapi';
import * as z from 'zod';
import { badRequest } from '../../core/errors.ts';
import type { WebSettings } from '../../core/settings/web-settings.ts';

export interface Page {
  limit: number;
  offset: number;
}

const DIGITS = /^\d+$/;

/** limit/offset as OpenAPI documents them; the rules themselves live in parsePage. */
export const pageQuerySchema = {
  limit: z.string().optional().openapi({ description: 'Page size, default 20, at most API_MAX_PAGE_LIMIT', example: '20' }),
  offset: z.string().optional().openapi({ description: 'Records to skip, default 0', example: '0' }),
};

/** Plain decimal integers only; limit ≥ 1 and ≤ the maximum (named in the message; the library codes it `PAGE_LIMIT_EXCEEDED`). */
export const parsePage = (
  query: { limit?: string; offset?: string },
  settings: WebSettings,
  options: { overMaximumCode?: string } = {},
): Page => {
  const { limit, offset } = query;
  if (limit !== undefined && !DIGITS.test(limit)) throw badRequest('limit: must be a positive integer');
  if (offset !== undefined && !DIGITS.test(offset)) throw badRequest('offset: must be a non-negative integer');
  const page = { limit: limit === undefined ? settings.defaultPageLimit : Number(limit), offset: Number(offset ?? 0) };
  if (page.limit < 1) throw badRequest('limit: must be a positive integer');
  if (page.limit > settings.maxPageLimit) {
    throw badRequest(`limit: must not exceed the maximum of ${settings.maxPageLimit}`, options.overMaximumCode);
  }
  if (!Number.isSafeInteger(page.offset)) throw badRequest('offset: must be a non-negative integer');
  return page;
};

export interface ListEnvelope<T> {
  data: T[];
  pagination: { total: number; limit: number; offset: number; hasMore: boolean };
}

export const listEnvelope = <T>(data: T[], total: number, page: Page): ListEnvelope<T> => ({
  data,
  pagination: { total, limit: page.limit, offset: page.offset, hasMore: page.offset + data.length < total },
});

export const listEnvelopeSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    pagination: z.object({
      total: z.number().int(),
      limit: z.number().int(),
      offset: z.number().int(),
      hasMore: z.boolean(),
    }),
  });
