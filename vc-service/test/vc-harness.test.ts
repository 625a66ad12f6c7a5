import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startVcService } from './vc-harness.ts';

/**
 * The free port the harness picks can be taken by another test's server before the VC service binds it.
 * The service then exits (EADDRINUSE) while the other server answers its health check with a 404: the
 * harness must start it again on another port, not wait on the stranger until the hook times out.
 */
let taken: Server;
const ports: number[] = [];
vi.mock('../../test/rig/postgres-server.ts', async (original) => {
  const actual = await original<typeof import('../../test/rig/postgres-server.ts')>();
  return {
    ...actual,
    freePort: async () => {
      const port = ports.length === 0 ? (taken.address() as AddressInfo).port : await actual.freePort();
      ports.push(port);
      return port;
    },
  };
});

describe('the VC service harness', () => {
  beforeAll(async () => {
    taken = createServer((_request, response) => response.writeHead(404).end());
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', () => resolve()));
  });
  afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

  it('starts the service again on another port when its first port was taken by a server answering 404', async () => {
    const vc = await startVcService();
    try {
      expect(ports).toHaveLength(2);
      expect(vc.url).toBe(`http://127.0.0.1:${ports[1]}`);
      expect((await vc.call('GET', '/health-check')).status).toBe(200);
    } finally {
      await vc.stop();
    }
  }, 30_000);
});
