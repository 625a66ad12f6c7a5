import type { SecretBox } from '../crypto/secret-box.ts';
import type { RecordView } from './record-queries.ts';

/** Where a record's stored copy is: the issued envelope of a native record, our durable copy of an external one. */
export interface StoredCopy {
  storageUri: string;
  digestMultibase: string;
  /** The storage key sealed with DATA_ENCRYPTION_KEY; null for a copy stored in the clear. */
  wrappedKey: string | null;
}

export const storedCopyOf = (view: RecordView): StoredCopy | null => {
  if (view.native) {
    return { storageUri: view.native.storageUri, digestMultibase: view.native.digestMultibase, wrappedKey: view.native.wrappedDecryptionKey };
  }
  if (view.external) {
    return { storageUri: view.external.storageUri, digestMultibase: view.external.storageDigestMultibase, wrappedKey: view.external.wrappedCopyKey };
  }
  return null;
};

/** Opens a sealed storage key; a key sealed under another DATA_ENCRYPTION_KEY (or damaged) is `undefined`, never an exception. */
export const unwrapKey = async (box: SecretBox, wrapped: string): Promise<string | undefined> => {
  try {
    return await box.decrypt(wrapped);
  } catch {
    return undefined;
  }
};
