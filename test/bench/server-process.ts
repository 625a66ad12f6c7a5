import { connectDatabase, type Database } from '../../db/client.ts';
import { buildBenchApp, listen, POOL_SIZE } from './lib.ts';
import { productsFloor } from './products-floor.ts';
import { fetchSigningKey, registrarsFloor } from './registrars-floor.ts';

/**
 * One server of a comparison in a process of its own (started by lib.ts `startServerProcess`, with the
 * node flags of `npm run start:web`), so that contenders share no JIT state, heap or garbage collector
 * with each other or with the bench. Reads its job as JSON from stdin, prints `{"url": …}`, runs until SIGTERM.
 * - `app`: the real web API; `verifying-app`: the same, verifying every token's signature;
 * - `registrars-floor`, `products-floor`: those routes' floors (registrars-floor.ts, products-floor.ts), each on its own pool;
 * - `registrars-floor-signature`: the registrar floor that also checks each token's signature (a bare `crypto.verify`).
 */
export type ServerRole = 'app' | 'verifying-app' | 'registrars-floor' | 'registrars-floor-signature' | 'products-floor';
export interface ServerJob {
  role: ServerRole;
  databaseUrl: string;
  settingsEnv: Record<string, string>;
  /** The tenant a floor reads for (it has no authentication to find one). */
  tenantId?: string;
}

const FLOORS = {
  'registrars-floor': (db: Database, tenantId: string) => registrarsFloor(db, tenantId),
  'registrars-floor-signature': async (db: Database, tenantId: string, settingsEnv: Record<string, string>) =>
    registrarsFloor(db, tenantId, await fetchSigningKey(settingsEnv.AUTH_OIDC_ISSUER!)),
  'products-floor': (db: Database, tenantId: string) => productsFloor(db, tenantId),
};
const isFloor = (role: ServerRole): role is keyof typeof FLOORS => Object.hasOwn(FLOORS, role);

const floorServer = async (role: keyof typeof FLOORS, job: ServerJob) => {
  const { db, close } = connectDatabase(job.databaseUrl, { max: POOL_SIZE });
  const floor = await FLOORS[role](db, job.tenantId!, job.settingsEnv);
  return { fetch: (request: Request) => floor.fetch(request), close };
};

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const job = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ServerJob;
const server = isFloor(job.role)
  ? await floorServer(job.role, job)
  : buildBenchApp(job.databaseUrl, job.settingsEnv, { verifyEveryToken: job.role === 'verifying-app' });
const listening = await listen(server.fetch);
process.stdout.write(`${JSON.stringify({ url: listening.url })}\n`);
process.once('SIGTERM', () => {
  void listening
    .close()
    .then(() => server.close())
    .finally(() => process.exit(0));
});
