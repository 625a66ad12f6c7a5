import type { RemoteStatusLists, StatusListFailure } from './remote-status-lists.ts';
import { statusIndexOf } from './status-bits.ts';
import type { StatusLists } from './status-lists.ts';

export type EntryStatus = { set: boolean; purpose: string } | StatusListFailure;

const invalid = (message: string): StatusListFailure => ({ errorCode: 'status_list_invalid', message });

/**
 * The bit a `BitstringStatusListEntry` names, wherever its list lives: this service's own lists from
 * its database, any other list from its URL (fetched and verified). A list that cannot be read or
 * verified, or an entry that does not fit it, is a failure: never "not revoked".
 */
export const createStatusReader = (deps: { statusLists: StatusLists; remote: RemoteStatusLists }) => async (entry: Record<string, unknown>): Promise<EntryStatus> => {
  const url = entry.statusListCredential;
  const purpose = entry.statusPurpose;
  const index = statusIndexOf(entry);
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) return invalid('statusListCredential must be an http(s) URL');
  if (typeof purpose !== 'string' || purpose === '') return invalid('statusPurpose must be a non-empty string');
  if (index === undefined) return invalid('statusListIndex must be a non-negative integer (a string of digits)');
  if (entry.statusSize !== undefined && entry.statusSize !== 1) return invalid('only statusSize 1 is supported');
  if (deps.statusLists.listIdOf(url)) {
    const own = await deps.statusLists.bitOf(entry);
    if (!own) return invalid('the status list is not held by this service or the index is outside it');
    if (own.purpose !== purpose) return invalid(`the status list's purpose is not ${purpose}`);
    return own;
  }
  const remote = await deps.remote.bitOf(url, purpose, index);
  return 'errorCode' in remote ? remote : { set: remote.set, purpose };
};

export type StatusReader = ReturnType<typeof createStatusReader>;
