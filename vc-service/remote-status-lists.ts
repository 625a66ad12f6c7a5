import type { Fetcher } from '../core/net/fetcher.ts';
import type { JwsChecker } from './jws-check.ts';
import { bitAt, decodeEncodedList } from './status-bits.ts';

/** A status list that could not be read (`status_list_unavailable`) or is not a valid, verified list (`status_list_invalid`). */
export interface StatusListFailure {
  errorCode: 'status_list_unavailable' | 'status_list_invalid';
  message: string;
}

interface ReadList {
  purposes: string[];
  bits: Uint8Array;
  /** The list credential's own `validUntil` (ms), when it has one. */
  validUntil?: number;
}

interface CachedList extends ReadList {
  etag?: string;
  /** Until when (ms) the list is used without asking its host again. */
  freshUntil: number;
}

/** Lists kept at most (a list is at most 256 KiB of bits), and the longest a `max-age` is honoured. */
const MAX_CACHED_LISTS = 100;
const MAX_FRESH_SECONDS = 300;
const ACCEPT = 'application/vc+jwt, application/json;q=0.9';
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const ENVELOPED_JWS = /^data:application\/(vc\+jwt|vc-ld\+jwt|vc\+ld\+jwt),/;

const unavailable = (message: string): StatusListFailure => ({ errorCode: 'status_list_unavailable', message });
const invalid = (message: string): StatusListFailure => ({ errorCode: 'status_list_invalid', message });
const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

/** How long a response may be reused, by its caching headers: 0 (revalidate each use) unless it names a lifetime. */
export const freshSeconds = (headers: Headers, now: number): number => {
  const control = (headers.get('cache-control') ?? '').toLowerCase();
  if (/(^|[\s,])(no-store|no-cache)([\s,=]|$)/.test(control)) return 0;
  const maxAge = /(^|[\s,])max-age=(\d+)/.exec(control);
  const expires = headers.get('expires');
  let seconds = 0;
  if (maxAge) seconds = Number(maxAge[2]);
  else if (expires && !Number.isNaN(Date.parse(expires))) seconds = Math.floor((Date.parse(expires) - now) / 1000);
  return Math.max(0, Math.min(seconds, MAX_FRESH_SECONDS));
};

/** The compact JWS of a served status list: the JWS itself (`application/vc+jwt`) or VCkit's enveloped JSON form. */
const jwsOfBody = (body: string): string | undefined => {
  const text = body.trim();
  if (COMPACT_JWS.test(text)) return text;
  try {
    const json = JSON.parse(text) as Record<string, unknown>;
    if (json && asList(json.type).includes('EnvelopedVerifiableCredential') && typeof json.id === 'string' && ENVELOPED_JWS.test(json.id)) {
      return json.id.slice(json.id.indexOf(',') + 1);
    }
  } catch {
    return undefined;
  }
  return undefined;
};

/**
 * Status lists of other services, read the way a W3C Bitstring Status List verifier does: fetched
 * from the entry's `statusListCredential` through the guarded fetch, the list credential's own
 * signature verified against its issuer's DID, then the entry's bit. Lists are kept by their HTTP
 * caching headers (at most 5 minutes; revalidated with their ETag), at most 100 of them; concurrent
 * readers of one list share one fetch.
 */
export const createRemoteStatusLists = (deps: { fetcher: Fetcher; checkJws: JwsChecker }) => {
  const cache = new Map<string, CachedList>();
  const pending = new Map<string, Promise<CachedList | StatusListFailure>>();

  const remember = (url: string, list: CachedList) => {
    cache.delete(url);
    if (cache.size >= MAX_CACHED_LISTS) cache.delete(cache.keys().next().value!);
    cache.set(url, list);
  };

  const read = async (url: string, jws: string): Promise<ReadList | StatusListFailure> => {
    const checked = await deps.checkJws(jws);
    if ('failure' in checked) return invalid(`the status list credential does not verify (${checked.failure.errorCode}: ${checked.failure.message})`);
    const list = checked.payload;
    if (!asList(list.type).includes('BitstringStatusListCredential')) return invalid('the status list is not a BitstringStatusListCredential');
    if (list.id !== undefined && list.id !== url) return invalid('the status list credential id is not the URL it was fetched from');
    const subject = list.credentialSubject as Record<string, unknown> | undefined;
    if (!subject || typeof subject !== 'object' || subject.type !== 'BitstringStatusList') return invalid('the status list has no BitstringStatusList subject');
    const bits = decodeEncodedList(subject.encodedList);
    if (!bits) return invalid('the encodedList is not a GZIP-compressed, base64url bitstring (or it is longer than allowed)');
    const purposes = asList(subject.statusPurpose).filter((p): p is string => typeof p === 'string');
    const validUntil = typeof list.validUntil === 'string' ? Date.parse(list.validUntil) : undefined;
    return { purposes, bits, ...(validUntil !== undefined && !Number.isNaN(validUntil) ? { validUntil } : {}) };
  };

  const fetchList = async (url: string, stale: CachedList | undefined): Promise<CachedList | StatusListFailure> => {
    let response: Response;
    let body: string;
    try {
      response = await deps.fetcher(url, { headers: { accept: ACCEPT, ...(stale?.etag ? { 'if-none-match': stale.etag } : {}) } });
      body = await response.text();
    } catch (error) {
      return unavailable(`the status list could not be fetched (${error instanceof Error ? error.message : String(error)})`);
    }
    const now = Date.now();
    if (response.status === 304 && stale) {
      const renewed = { ...stale, freshUntil: now + freshSeconds(response.headers, now) * 1000 };
      remember(url, renewed);
      return renewed;
    }
    if (response.status !== 200) return unavailable(`the status list answered HTTP ${response.status}`);
    const jws = jwsOfBody(body);
    if (!jws) return invalid('the status list is not a VC-JOSE secured credential (a compact JWS or an EnvelopedVerifiableCredential)');
    const list = await read(url, jws);
    if ('errorCode' in list) return list;
    const etag = response.headers.get('etag') ?? undefined;
    const cached: CachedList = { ...list, ...(etag ? { etag } : {}), freshUntil: now + freshSeconds(response.headers, now) * 1000 };
    if (!/no-store/i.test(response.headers.get('cache-control') ?? '')) remember(url, cached);
    return cached;
  };

  const listAt = (url: string): Promise<CachedList | StatusListFailure> => {
    const cached = cache.get(url);
    if (cached && cached.freshUntil > Date.now()) return Promise.resolve(cached);
    let running = pending.get(url);
    if (!running) {
      running = fetchList(url, cached).finally(() => pending.delete(url));
      pending.set(url, running);
    }
    return running;
  };

  return {
    /** The bit an entry names on another service's list, or why it cannot be read. */
    async bitOf(url: string, purpose: string, index: number): Promise<{ set: boolean } | StatusListFailure> {
      const list = await listAt(url);
      if ('errorCode' in list) return list;
      if (list.validUntil !== undefined && list.validUntil < Date.now()) return invalid('the status list credential has expired');
      if (!list.purposes.includes(purpose)) return invalid(`the status list's purpose is not ${purpose}`);
      const set = bitAt(list.bits, index);
      if (set === undefined) return invalid('the statusListIndex is outside the status list');
      return { set };
    },
  };
};

export type RemoteStatusLists = ReturnType<typeof createRemoteStatusLists>;
