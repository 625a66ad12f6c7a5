import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVcService } from '../../vc-service/test/vc-harness.ts';
import { createTestDatabase, type TestDatabase } from '../rig/databases.ts';
import { freePort } from '../rig/postgres-server.ts';
import { runProgram, untilHealthy, type Program } from '../rig/program.ts';
import { TEST_ENCRYPTION_KEY } from '../rig/test-settings.ts';

/** Every log line of each service names it (`service.name`, OTEL_SERVICE_NAME or the default), and a clean stop logs one line. */
const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

const stop = async (program: Program) => {
  program.child.kill('SIGTERM');
  expect(await program.exited).toBe(0);
  return jsonLines(program.output().stdout);
};

describe('service logs', () => {
  let database: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    database = await createTestDatabase();
    dir = await mkdtemp(join(tmpdir(), 'css-logs-'));
  });
  afterAll(async () => {
    await database?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('web: every line names the service; SIGTERM logs "Web API stopped" once', async () => {
    const port = await freePort();
    const web = runProgram('functions/server.ts', {
      RI_APP_URL: `http://127.0.0.1:${port}`,
      AUTH_OIDC_ISSUER: 'http://127.0.0.1:9',
      RI_DATABASE_URL: database.url,
      DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      PORT: String(port),
      HOST: '127.0.0.1',
      OTEL_SERVICE_NAME: 'web-under-test',
    });
    expect(await untilHealthy(web.child, `http://127.0.0.1:${port}/api/health`, 60)).toBeUndefined();
    const lines = await stop(web);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.filter((line) => line['service.name'] !== 'web-under-test')).toEqual([]);
    expect(lines.filter((line) => line.message === 'Web API stopped')).toHaveLength(1);
  });

  it('storage service: every line names it by default; SIGTERM logs "Storage service stopped" once', async () => {
    const port = await freePort();
    const storage = runProgram('storage-service/server.ts', {
      API_KEY: 'test-storage-key-0123456789',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      STORAGE_TYPE: 'local',
      LOCAL_DIRECTORY: dir,
      WORKERS: '1',
    });
    expect(await untilHealthy(storage.child, `http://127.0.0.1:${port}/health-check`)).toBeUndefined();
    const lines = await stop(storage);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.filter((line) => line['service.name'] !== 'credential-support-storage-service')).toEqual([]);
    expect(lines.filter((line) => line.message === 'Storage service stopped')).toHaveLength(1);
  });

  it('VC service: every line names it by default, also its DID lines; SIGTERM logs "VC service stopped" once', async () => {
    const vc = await startVcService();
    try {
      expect((await vc.agent('didManagerCreate', { alias: 'logs.example.com' })).status).toBe(200);
      vc.program.child.kill('SIGTERM');
      expect(await vc.program.exited).toBe(0);
      const lines = jsonLines(vc.program.output().stdout);
      expect(lines.filter((line) => line['service.name'] !== 'credential-support-vc-service')).toEqual([]);
      expect(lines.map((line) => line.message)).toContain('DID created');
      expect(lines.filter((line) => line.message === 'VC service stopped')).toHaveLength(1);
    } finally {
      await vc.stop();
    }
  });
});
