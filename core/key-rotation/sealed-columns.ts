import { eq, getTableName, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import {
  browserSessions,
  credentialBatchItems,
  credentials,
  externalCredentials,
  idempotencyKeys,
  serviceInstances,
  systemMeta,
} from '../../db/schema/index.ts';
import { KEY_CHECK } from '../start-up/system-defaults.ts';

/**
 * Every column holding a value sealed with DATA_ENCRYPTION_KEY (core/crypto/secret-box.ts), with the
 * column naming its row. A new sealed column is added here, so rotation and audit cover it.
 * `only` narrows a table to the rows that hold sealed values.
 */
export interface SealedColumn {
  table: PgTable;
  id: PgColumn;
  column: PgColumn;
  only?: SQL;
}

export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: systemMeta, id: systemMeta.key, column: systemMeta.value, only: eq(systemMeta.key, KEY_CHECK) },
  { table: serviceInstances, id: serviceInstances.id, column: serviceInstances.configEncrypted },
  { table: browserSessions, id: browserSessions.tokenHash, column: browserSessions.refreshTokenEncrypted },
  { table: credentials, id: credentials.id, column: credentials.wrappedDecryptionKey },
  { table: idempotencyKeys, id: idempotencyKeys.id, column: idempotencyKeys.sealedResponse },
  { table: externalCredentials, id: externalCredentials.id, column: externalCredentials.wrappedCopyKey },
  { table: credentialBatchItems, id: credentialBatchItems.id, column: credentialBatchItems.sealedRequest },
];

/** `table.column`, as progress and audit lines name it. */
export const sealedColumnName = (sealed: SealedColumn): string => `${getTableName(sealed.table)}.${sealed.column.name}`;
