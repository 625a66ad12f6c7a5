import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import postgres from 'postgres';
import type { VcService } from '../../vc-service/test/vc-harness.ts';
import { decodeEnveloped } from './credential-fixtures.ts';

/**
 * What the services outside our database hold after issuance, so a test can count credentials
 * where they are made and kept, not only in our rows: the VC service's signatures and status
 * entries, and the storage service's objects.
 */

/** Successful sign requests the VC service answered, read from its request log (the harness runs it at debug). */
export const vcSignatureCount = (vc: VcService): number =>
  vc.program
    .output()
    .stdout.split('\n')
    .filter((line) => line.includes('"/v2/credentials/issue"'))
    .map((line) => JSON.parse(line) as { message?: string; path?: string; status?: number })
    .filter((entry) => entry.message === 'request' && entry.path === '/v2/credentials/issue' && (entry.status ?? 500) < 300).length;

/** Status entries the VC service allocated for an issuer (its durable counter: each list's next free index). */
export const statusEntriesAllocated = async (vc: VcService, issuerDid: string): Promise<number> => {
  const sql = postgres(vc.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ n: number }[]>`select coalesce(sum(next_index), 0)::int as n from vc_service.status_lists where issuer = ${issuerDid}`;
    return row!.n;
  } finally {
    await sql.end();
  }
};

export interface StoredObjects {
  /** Every object file under the storage directory. */
  count: number;
  /** The `id` of each credential stored unencrypted (one entry per object, so repeats show). */
  credentialIds: string[];
}

/** The objects a local-backend storage service holds (files under its LOCAL_DIRECTORY, one per object). */
export const storedObjects = async (localDirectory: string): Promise<StoredObjects> => {
  const credentialIds: string[] = [];
  let count = 0;
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        await walk(path);
        continue;
      }
      count += 1;
      const body = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
      if (typeof body.id === 'string' && body.id.startsWith('data:')) credentialIds.push(decodeEnveloped(body).id as string);
    }
  };
  await walk(localDirectory);
  return { count, credentialIds };
};
