import { sql } from 'drizzle-orm';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Database } from '../../db/client.ts';
import { SEALED_COLUMNS, sealedColumnName, type SealedColumn } from './sealed-columns.ts';

export interface ColumnRotation {
  column: string;
  /** Re-sealed under the current key by this run. */
  resealed: number;
  /** Changed by the service between read and write (so already sealed under the current key): left as it is. */
  changedMeanwhile: number;
  /** Opened by neither key (damaged, or sealed under a key this run does not hold): left as it is. */
  unopenable: number;
}

export interface RotationOptions {
  /** Rows read, re-sealed and written per transaction. */
  batchSize: number;
  /** After each written batch: the running totals of the column. */
  onBatch?: (progress: ColumnRotation) => void;
}

const notUnderKey = (sealed: SealedColumn, currentKeyId: string) =>
  sql`${sealed.column} is not null and not starts_with(${sealed.column}, ${`v2.${currentKeyId}.`})${sealed.only ? sql` and ${sealed.only}` : sql``}`;

const rotateColumn = async (db: Database, box: SecretBox, sealed: SealedColumn, currentKeyId: string, options: RotationOptions) => {
  const progress: ColumnRotation = { column: sealedColumnName(sealed), resealed: 0, changedMeanwhile: 0, unopenable: 0 };
  // Keyset walk: a row left unopened is passed over, not read again, so every run ends.
  let after: string | undefined;
  for (;;) {
    const rows = await db.execute<{ id: string; value: string }>(sql`
      select ${sealed.id} as id, ${sealed.column} as value from ${sealed.table}
      where ${notUnderKey(sealed, currentKeyId)}${after === undefined ? sql`` : sql` and ${sealed.id} > ${after}`}
      order by ${sealed.id} limit ${options.batchSize}`);
    if (rows.length === 0) return progress;
    after = rows.at(-1)!.id;
    const resealed: { id: string; from: string; to: string }[] = [];
    for (const row of rows) {
      const plain = await box.decrypt(row.value).catch(() => undefined);
      if (plain === undefined) progress.unopenable += 1;
      else resealed.push({ id: row.id, from: row.value, to: await box.encrypt(plain) });
    }
    // Compare-and-set: a value the service rewrote meanwhile is already under the current key and wins.
    await db.transaction(async (tx) => {
      for (const { id, from, to } of resealed) {
        const written = await tx.execute(sql`
          update ${sealed.table} set ${sql.identifier(sealed.column.name)} = ${to} where ${sealed.id} = ${id} and ${sealed.column} = ${from}`);
        if (written.count === 1) progress.resealed += 1;
        else progress.changedMeanwhile += 1;
      }
    });
    options.onBatch?.({ ...progress });
  }
};

/**
 * Re-seals every value not sealed under the current DATA_ENCRYPTION_KEY (the box holds the previous one
 * to open them). Safe while the service runs and after a crash: each batch commits on its own, and a run
 * reads only what is not yet under the current key, so running it again carries on where it stopped.
 */
export const rotateSealedValues = async (db: Database, box: SecretBox, options: RotationOptions): Promise<ColumnRotation[]> => {
  const currentKeyId = await box.currentKeyId();
  const outcome: ColumnRotation[] = [];
  for (const sealed of SEALED_COLUMNS) outcome.push(await rotateColumn(db, box, sealed, currentKeyId, options));
  return outcome;
};
