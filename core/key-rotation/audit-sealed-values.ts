import { sql } from 'drizzle-orm';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Queryable } from '../../db/client.ts';
import { SEALED_COLUMNS, sealedColumnName } from './sealed-columns.ts';

/** Which key a group of sealed values is under, as the audit names it. */
export type KeyRole = 'current' | 'previous' | 'unknown' | 'legacy' | 'unreadable';

export interface SealedCount {
  column: string;
  /** A key id (a digest, never the key), `legacy` (sealed before key ids) or `unreadable` (not a sealed value). */
  keyId: string;
  role: KeyRole;
  count: number;
}

/** Counts sealed values per column and key id, reading only the ids in the values' headers (nothing is opened). */
export const auditSealedValues = async (db: Queryable, box: SecretBox): Promise<SealedCount[]> => {
  const current = await box.currentKeyId();
  const previous = await box.previousKeyId();
  const counts: SealedCount[] = [];
  for (const sealed of SEALED_COLUMNS) {
    const rows = await db.execute<{ key_id: string; count: number }>(sql`
      select case
          when split_part(${sealed.column}, '.', 1) = 'v2' and array_length(string_to_array(${sealed.column}, '.'), 1) = 4
            then split_part(${sealed.column}, '.', 2)
          when split_part(${sealed.column}, '.', 1) = 'v1' and array_length(string_to_array(${sealed.column}, '.'), 1) = 3 then 'legacy'
          else 'unreadable' end as key_id,
        count(*)::int as count
      from ${sealed.table}
      where ${sealed.column} is not null${sealed.only ? sql` and ${sealed.only}` : sql``}
      group by 1 order by 1`);
    for (const row of rows) {
      const role: KeyRole =
        row.key_id === current ? 'current'
        : row.key_id === previous ? 'previous'
        : row.key_id === 'legacy' || row.key_id === 'unreadable' ? row.key_id
        : 'unknown';
      counts.push({ column: sealedColumnName(sealed), keyId: row.key_id, role, count: Number(row.count) });
    }
  }
  return counts;
};
