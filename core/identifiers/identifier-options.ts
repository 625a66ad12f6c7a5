import { desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { identifiers } from '../../db/schema/index.ts';

/** The tenant's identifiers as picker options (id and value), newest first: no scheme rules involved. */
export const identifierOptions = (db: Database, tenantId: string, limit: number) =>
  db
    .select({ id: identifiers.id, value: identifiers.value })
    .from(identifiers)
    .where(eq(identifiers.tenantId, tenantId))
    .orderBy(desc(identifiers.createdAt), desc(identifiers.id))
    .limit(limit);
