import { createRoute } from '@hono/zod-openapi';
import * as z from 'zod';
import { sql } from 'drizzle-orm';
import { createGroupApp } from '../platform/create-app.ts';
import { jsonResponse } from '../platform/openapi-responses.ts';

const HealthSchema = z.object({ status: z.enum(['ok', 'unavailable']), database: z.enum(['up', 'down']) }).openapi('Health');

const healthRoute = createRoute({
  method: 'get',
  operationId: 'getHealth',
  path: '/',
  tags: ['Health'],
  summary: 'Liveness for load balancers (public); checks the database',
  security: [],
  responses: {
    200: jsonResponse(HealthSchema, 'Healthy'),
    503: jsonResponse(HealthSchema, 'The database is unreachable'),
  },
});

/** /api/health */
export const healthApp = createGroupApp();
healthApp.openapi(healthRoute, async (c) => {
  try {
    await c.get('services').db.execute(sql`select 1`);
    return c.json({ status: 'ok' as const, database: 'up' as const }, 200);
  } catch {
    return c.json({ status: 'unavailable' as const, database: 'down' as const }, 503);
  }
});
