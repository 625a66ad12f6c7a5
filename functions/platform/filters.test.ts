import { createRoute, z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { createGroupApp } from './create-app.ts';
import { handleError } from './error-handler.ts';
import { booleanFilter, enumFilter } from './filters.ts';

/** A group app with one filtered route, run through the real validation hook and error handler. */
const app = createGroupApp();
app.onError(handleError);
app.openapi(
  createRoute({
    method: 'get',
    path: '/items',
    request: { query: z.object({ level: enumFilter(['MODEL', 'BATCH', 'ITEM'] as const), isExtension: booleanFilter() }) },
    responses: { 200: { description: 'ok' } },
  }),
  (c) => c.json(c.req.valid('query'), 200),
);

describe('query filters', () => {
  it('accept their values', async () => {
    const res = await app.request('/items?level=BATCH&isExtension=false');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ level: 'BATCH', isExtension: false });
    expect(await (await app.request('/items')).json()).toEqual({});
  });

  it.each([
    ['level=batch', 'level: must be one of MODEL, BATCH, ITEM'],
    ['level=', 'level: must be one of MODEL, BATCH, ITEM'],
    ['isExtension=yes', 'isExtension: must be true or false'],
    ['isExtension=TRUE', 'isExtension: must be true or false'],
  ])('400 naming the parameter for %s', async (query, message) => {
    const res = await app.request(`/items?${query}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: message, code: 'VALIDATION_FAILED' });
  });
});
