import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { LOGGED_ERROR_MAX_CHARS } from '../../core/db-errors.ts';
import { createLogger } from '../../core/logging/logger.ts';
import { connectDatabase } from '../../db/client.ts';
import type { AppEnv, Services } from './env.ts';
import { handleError } from './error-handler.ts';

/** A 500's log line names the PostgreSQL code and message, never the full statement parameters. */
const handle = connectDatabase(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', { max: 1 });
afterAll(() => handle.close());

describe('the log line of an unexpected database error', () => {
  it('has pgCode and pgMessage, and clips the 2 MB of user data drizzle puts in the message', async () => {
    const lines: string[] = [];
    const logger = createLogger('info', (line) => lines.push(line));
    const app = new Hono<AppEnv>();
    app.use('*', async (c, next) => {
      c.set('services', { logger } as unknown as Services);
      c.set('correlationId', 'corr-1');
      await next();
    });
    const userData = 'U'.repeat(2_000_000);
    app.get('/boom', async () => {
      await handle.db.execute(sql`select ${userData}::int`);
      return new Response('unreachable');
    });
    app.onError(handleError);

    const res = await app.request('/boom');
    expect(res.status).toBe(500);
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({ level: 'error', correlationId: 'corr-1', pgCode: '22P02', pgMessage: expect.stringContaining('invalid input syntax for type integer') });
    expect(lines[0]!.length).toBeLessThan(4 * LOGGED_ERROR_MAX_CHARS + 2000);
    expect(line.error).toMatch(/more characters\]$/);
  });
});
