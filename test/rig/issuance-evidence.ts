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
  /** The objects counted: every object file under the storage directory but the credentials of other issuers. */
  count: number;
  /** The `id` of each credential of the issuer stored unencrypted (one entry per object, so repeats show). */
  credentialIds: string[];
}

const issuerOf = (credential: Record<string, unknown>): unknown =>
  typeof credential.issuer === 'object' && credential.issuer !== null ? (credential.issuer as Record<string, unknown>).id : credential.issuer;

/**
 * The objects a local-backend storage service holds for one issuer (files under its LOCAL_DIRECTORY,
 * one per object). A credential stored unencrypted counts for its issuer only, so another test's
 * credentials do not move the count; any other object (encrypted, or not a credential) cannot be told
 * apart and counts for every issuer.
 */
export const storedObjects = async (localDirectory: string, issuerDid: string): Promise<StoredObjects> => {
  const credentialIds: string[] = [];
  let count = 0;
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        await walk(path);
        continue;
      }
      // The storage service's correlation index (storage-service/correlation-index.ts), not a stored object.
      if (entry.name.startsWith('corr.')) continue;
      const body = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
      if (typeof body.id === 'string' && body.id.startsWith('data:')) {
        const credential = decodeEnveloped(body);
        if (issuerOf(credential) !== issuerDid) continue;
        credentialIds.push(credential.id as string);
      }
      count += 1;
    }
  };
  await walk(localDirectory);
  return { count, credentialIds };
};
