import type { RecordView } from '../../core/library/record-queries.ts';
import { isReadable } from '../../core/library/record-rules.ts';
import { toCredentialRecord, type CredentialRecord } from './schemas.ts';

export interface RecordFailure {
  id: string;
  code: string;
  message: string;
}

/**
 * Records in the order of `ids`: readable ones as keyless records, the rest as RECORD_UNREADABLE
 * failures; ids without a view (gone meanwhile, or never the tenant's) are left to the caller.
 */
export const splitReadable = (ids: string[], views: Map<string, RecordView>, missing?: (id: string) => RecordFailure) => {
  const data: CredentialRecord[] = [];
  const failures: RecordFailure[] = [];
  const now = new Date();
  for (const id of ids) {
    const view = views.get(id);
    if (!view) {
      if (missing) failures.push(missing(id));
    } else if (isReadable(view)) data.push(toCredentialRecord(view, now));
    else failures.push({ id, code: 'RECORD_UNREADABLE', message: 'This credential record cannot be read.' });
  }
  return { data, failures };
};
