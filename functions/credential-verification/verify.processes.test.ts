import type { ServerResponse } from 'node:http';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../db/client.ts';
import { callFrom } from '../../test/rig/call-from.ts';
import { createTestDatabase, type TestDatabase } from '../../test/rig/databases.ts';
import { freePort } from '../../test/rig/postgres-server.ts';
import { runProgram, untilHealthy, type Program } from '../../test/rig/program.ts';
import { TEST_ENCRYPTION_KEY } from '../../test/rig/test-settings.ts';
import { startSource, VERIFY_PATH, verifyQuery, type Source } from '../../test/rig/verify-rig.ts';

/**
 * Two web processes (`functions/server.ts`, as an operator starts them) on one database: the verify
 * route's per-client rate limit and its global concurrency limit hold across both, since both are
 * kept in PostgreSQL, not in either process.
 */
describe('verify limits shared by two web processes', () => {
  let database: TestDatabase;
  let source: Source;
  const webs: { program: Program; url: string }[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    source = await startSource();
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const program = runProgram('functions/server.ts', {
        PORT: String(port),
        HOST: '127.0.0.1',
        RI_APP_URL: url,
        AUTH_OIDC_ISSUER: 'http://127.0.0.1:9',
        RI_DATABASE_URL: database.url,
        DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        FETCH_ALLOW_PRIVATE_URLS: 'true',
        VERIFY_RATE_LIMIT_PER_MINUTE: '4',
        VERIFY_MAX_CONCURRENCY: '1',
        LOG_LEVEL: 'error',
      });
      webs.push({ program, url });
      const problem = await untilHealthy(program.child, `${url}/api/health`, 60);
      if (problem) throw new Error(`web process ${i + 1}: ${problem}\n${program.output().stderr}`);
    }
  }, 150_000);

  afterAll(async () => {
    for (const { program } of webs) {
      program.child.kill('SIGTERM');
      await program.exited;
    }
    await source?.close();
    await database?.drop();
  });

  it('VERIFY_RATE_LIMIT_PER_MINUTE counts a client’s requests to either process against one allowance', async () => {
    const [a, b] = webs as [(typeof webs)[0], (typeof webs)[0]];
    const client = '127.0.0.3';
    for (const web of [a, b, a, b]) expect((await callFrom(client, 'GET', `${web.url}${verifyQuery({ uri: 'not a url' })}`)).status).toBe(400);
    for (const web of [a, b]) {
      const refused = await callFrom(client, 'POST', `${web.url}${VERIFY_PATH}`, { uri: 'not a url' });
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('RATE_LIMITED');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    // Another client still has its own allowance on both.
    expect((await callFrom('127.0.0.4', 'GET', `${b.url}${verifyQuery({ uri: 'not a url' })}`)).status).toBe(400);
  });

  it('VERIFY_MAX_CONCURRENCY holds across both: while one process verifies, the other answers 429 VERIFY_BUSY; the slot frees when it ends', async () => {
    const [a, b] = webs as [(typeof webs)[0], (typeof webs)[0]];
    const held = source.hold('/slow', { not: 'a credential' });
    const first = callFrom('127.0.0.5', 'POST', `${a.url}${VERIFY_PATH}`, { uri: held.url });
    await held.arrived;
    const busy = await callFrom('127.0.0.6', 'POST', `${b.url}${VERIFY_PATH}`, { uri: held.url });
    expect(busy.status).toBe(429);
    expect(busy.body).toEqual({ error: 'Too many verifications in progress; retry shortly', code: 'VERIFY_BUSY' });
    expect(busy.headers['retry-after']).toBe('1');
    held.release();
    expect((await first).body.code).toBe('UNSUPPORTED_CREDENTIAL_TYPE');
    const after = await callFrom('127.0.0.6', 'POST', `${b.url}${VERIFY_PATH}`, { uri: held.url });
    expect(after.body.code).toBe('UNSUPPORTED_CREDENTIAL_TYPE');
  });

  it('requests arriving at once at both processes: exactly VERIFY_MAX_CONCURRENCY is admitted, every other one 429 VERIFY_BUSY; one client gets no more than its allowance', async () => {
    const [a, b] = webs as [(typeof webs)[0], (typeof webs)[0]];
    // A source path that counts the verifications reaching it and holds them until released.
    const waiting: ServerResponse[] = [];
    let settled = 0;
    let everyoneAccounted!: () => void;
    const accounted = new Promise<void>((resolve) => (everyoneAccounted = resolve));
    const callers = 8;
    const check = () => settled + waiting.length === callers && everyoneAccounted();
    source.routes.set('/crowd', (_req, res) => {
      waiting.push(res);
      check();
    });
    const calls = Array.from({ length: callers }, (_, i) =>
      callFrom(`127.0.0.${20 + i}`, 'POST', `${(i % 2 ? a : b).url}${VERIFY_PATH}`, { uri: `${source.url}/crowd` }).then((answer) => {
        settled += 1;
        check();
        return answer;
      }),
    );
    await accounted;
    expect(waiting).toHaveLength(1);
    for (const res of waiting) res.writeHead(200, { 'content-type': 'application/json' }).end('{"not":"a credential"}');
    const answers = await Promise.all(calls);
    expect(answers.filter((answer) => answer.status === 429 && answer.body.code === 'VERIFY_BUSY')).toHaveLength(callers - 1);
    expect(answers.filter((answer) => answer.body.code === 'UNSUPPORTED_CREDENTIAL_TYPE')).toHaveLength(1);

    // One client at once at both processes: its allowance (4 a minute) gets past the rate limit (then
    // the one slot admits some, VERIFY_BUSY the others: every request counts), the rest is RATE_LIMITED.
    const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => callFrom('127.0.0.40', 'POST', `${(i % 2 ? a : b).url}${VERIFY_PATH}`, { uri: 'not a url' })));
    expect(burst.filter((answer) => answer.status === 400 || answer.body.code === 'VERIFY_BUSY')).toHaveLength(4);
    expect(burst.filter((answer) => answer.status === 400).length).toBeGreaterThanOrEqual(1);
    expect(burst.filter((answer) => answer.status === 429 && answer.body.code === 'RATE_LIMITED' && Number(answer.headers['retry-after']) >= 1)).toHaveLength(6);
  });

  it('a process killed mid-verification leaves its slot taken until its lease (120 s) expires; then the other process admits again and clears it', async () => {
    const [a, b] = webs as [(typeof webs)[0], (typeof webs)[0]];
    const held = source.hold('/killed', { not: 'a credential' });
    const lost = callFrom('127.0.0.50', 'POST', `${a.url}${VERIFY_PATH}`, { uri: held.url }).catch(() => 'connection lost');
    await held.arrived;
    a.program.child.kill('SIGKILL');
    await a.program.exited;
    expect(await lost).toBe('connection lost');
    expect((await callFrom('127.0.0.51', 'POST', `${b.url}${VERIFY_PATH}`, { uri: held.url })).body.code).toBe('VERIFY_BUSY');
    const { db, close } = connectDatabase(database.url, { max: 1 });
    try {
      const [lease] = await db.execute<{ seconds: number }>(sql`select extract(epoch from expires_at - now())::float8 as seconds from concurrency_leases where scope = 'verification'`);
      expect(lease!.seconds).toBeGreaterThan(60);
      expect(lease!.seconds).toBeLessThanOrEqual(120);
      // As if those 120 s had passed.
      await db.execute(sql`update concurrency_leases set expires_at = now() - interval '1 second' where scope = 'verification'`);
      held.release();
      expect((await callFrom('127.0.0.51', 'POST', `${b.url}${VERIFY_PATH}`, { uri: held.url })).body.code).toBe('UNSUPPORTED_CREDENTIAL_TYPE');
      expect(await db.execute(sql`select id from concurrency_leases`)).toHaveLength(0);
    } finally {
      await close();
    }
  });
});
