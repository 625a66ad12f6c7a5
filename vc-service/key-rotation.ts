import type postgres from 'postgres';
import type { KeyVault } from './key-vault.ts';

export interface KeyRotationProgress {
  /** Re-sealed under the current KEY_ENCRYPTION_KEY by this run. */
  resealed: number;
  /** Opened by neither key: left as it was. */
  unopenable: number;
}

/**
 * Re-seals every private key not sealed under the current KEY_ENCRYPTION_KEY (opening it with the key its
 * id names, or for keys sealed before ids, the current or previous one). Each batch commits on its own and
 * a run reads only what is not yet under the current key, so a run stopped midway is simply run again;
 * the write is compare-and-set, so it never overwrites a concurrent change.
 */
export const rotateSealedKeys = async (
  sql: postgres.Sql,
  vault: KeyVault,
  options: { batchSize: number; onBatch?: (progress: KeyRotationProgress) => void },
): Promise<KeyRotationProgress> => {
  const progress: KeyRotationProgress = { resealed: 0, unopenable: 0 };
  const currentKeyId = (await vault.keyIds()).current;
  let after = '';
  for (;;) {
    const rows = await sql<{ kid: string; private_key: Uint8Array; sealing_key_id: string | null }[]>`
      select kid, private_key, sealing_key_id from vc_service.keys
      where sealing_key_id is distinct from ${currentKeyId} and kid > ${after}
      order by kid limit ${options.batchSize}`;
    if (rows.length === 0) return progress;
    after = rows.at(-1)!.kid;
    const resealed: { kid: string; from: Uint8Array; to: Uint8Array }[] = [];
    for (const row of rows) {
      try {
        const opened = await vault.open(row.private_key, row.sealing_key_id);
        resealed.push({ kid: row.kid, from: row.private_key, to: (await vault.seal(opened.privateKey)).sealed });
      } catch {
        progress.unopenable += 1;
      }
    }
    await sql.begin(async (tx) => {
      for (const { kid, from, to } of resealed) {
        const written = await tx`update vc_service.keys set private_key = ${to}, sealing_key_id = ${currentKeyId}
          where kid = ${kid} and private_key = ${from}`;
        if (written.count === 1) progress.resealed += 1;
      }
    });
    options.onBatch?.({ ...progress });
  }
};

/** Private keys per sealing key id (`legacy`: sealed before ids were stored), never a key. */
export const auditSealedKeys = async (sql: postgres.Sql, vault: KeyVault) => {
  const ids = await vault.keyIds();
  const rows = await sql<{ key_id: string; count: number }[]>`
    select coalesce(sealing_key_id, 'legacy') as key_id, count(*)::int as count from vc_service.keys group by 1 order by 1`;
  return rows.map((row) => ({
    keyId: row.key_id,
    role: row.key_id === ids.current ? 'current' : row.key_id === ids.previous ? 'previous' : row.key_id === 'legacy' ? 'legacy' : 'unknown',
    count: Number(row.count),
  }));
};
