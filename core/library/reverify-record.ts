import { badRequest } from '../errors.ts';
import { openWithSupplierKey } from './open-with-supplier-key.ts';
import type { RecordView } from './record-queries.ts';
import type { LibraryDeps } from './register-external.ts';
import { requestVerification } from './request-verification.ts';

/**
 * Verifies a record again (the API's POST /library/{id}/verify and the console's button): with the
 * supplier's key, an external copy still encrypted is opened and verified; without one such a copy is
 * 400 DECRYPTION_REQUIRED; any other record starts (or joins) its next generation.
 */
export const reverifyRecord = async (deps: LibraryDeps, tenantId: string, view: RecordView, supplierKey?: string): Promise<void> => {
  if (supplierKey !== undefined) {
    await openWithSupplierKey(deps, tenantId, view, supplierKey);
  } else if (view.external?.unopened) {
    throw badRequest(
      'The stored copy is encrypted and no key was supplied to open it: send sourceEncryption.decryptionKey with this request.',
      'DECRYPTION_REQUIRED',
    );
  } else {
    await deps.db.transaction((tx) => requestVerification(tx, deps.jobs, { tenantId, recordId: view.record.id, origin: view.record.origin }));
  }
};
