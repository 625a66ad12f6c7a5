import type { ExecutionContext } from 'hono';
import { findRegistrarWithSchemes } from '../../core/registrars/registrar-repository.ts';
import { connectDatabaseWithGraph } from '../../db/client.ts';

/**
 * The edge bench's floor for a warm GET by id: a bare worker doing what the registrars edge function
 * does for it minus the platform, auth, validation and mapping: one PostgreSQL client for the request
 * (no relational graph, as the registrars group has none), the same repository function (the same
 * SQL), the client ended after the response. `FLOOR_TENANT_ID` stands in for the tenant authentication
 * would find.
 */
export default {
  async fetch(request: Request, env: { RI_DATABASE_URL: string; FLOOR_TENANT_ID: string }, ctx: ExecutionContext) {
    const id = new URL(request.url).pathname.split('/').pop() ?? '';
    const connection = connectDatabaseWithGraph(env.RI_DATABASE_URL, {}, { max: 1 });
    try {
      const row = await findRegistrarWithSchemes(connection.db, env.FLOOR_TENANT_ID, id);
      return row ? Response.json(row) : Response.json({ error: 'Registrar not found' }, { status: 404 });
    } finally {
      ctx.waitUntil(connection.close());
    }
  },
};
