import ipaddr from 'ipaddr.js';
import { isPublicAddress } from '../core/service-kit/public-address.ts';

/** Fetches a did:web document: the parsed JSON body, or throws with the reason. */
export type DocumentFetcher = (url: URL) => Promise<unknown>;

/**
 * One GET of a hop: its status, redirect target and body (at most MAX_BYTES), within TIMEOUT_MS of silence,
 * given up when `signal` (the whole fetch's deadline) aborts.
 */
export type HopFetcher = (url: URL, signal: AbortSignal) => Promise<{ status: number; location?: string; body: Uint8Array }>;

export const MAX_BYTES = 1_048_576;
export const TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 3;
export const ACCEPT = 'application/did+json, application/json';
export const TOO_LARGE = 'the DID document is larger than 1 MiB';
export const TOO_SLOW = 'the DID document did not arrive within 10 s';
/** For the whole fetch, redirects and body included: a server sending a byte now and then cannot hold us. */
const DEADLINE_MS = 15_000;

/**
 * did:web documents over HTTPS only, with the bounds and the address rule of the main API's guarded fetch
 * (`core/service-kit/public-address.ts`, the same test table): public addresses (unless `allowPrivate`;
 * addresses written in the URL are checked here, names by the hop fetcher where it can resolve them), 10 s of
 * silence per hop, 15 s for the whole fetch (`deadlineMs`, which tests shorten), 1 MiB, at most 3 redirects.
 */
export const documentFetcherOver =
  (getOnce: HopFetcher, allowPrivate: boolean, deadlineMs = DEADLINE_MS): DocumentFetcher =>
  async (start) => {
    const signal = AbortSignal.timeout(deadlineMs);
    let url = start;
    for (let hop = 0; ; hop++) {
      if (url.protocol !== 'https:') throw new Error(`${url.href} is not HTTPS`);
      // An address written in the URL is connected to without a lookup: check it here.
      const literal = url.hostname.replace(/^\[|\]$/g, '');
      if (ipaddr.isValid(literal) && !allowPrivate && !isPublicAddress(literal)) throw new Error(`${url.host} is not a public address`);
      let answer;
      try {
        answer = await getOnce(url, signal);
      } catch (error) {
        if (signal.aborted) throw new Error(`the DID document did not arrive within ${deadlineMs / 1000} s`);
        throw error;
      }
      const { status, location, body } = answer;
      if (status >= 300 && status < 400 && location) {
        if (hop >= MAX_REDIRECTS) throw new Error('more than 3 redirects');
        url = new URL(location, url);
        continue;
      }
      if (status !== 200) throw new Error(`${url.href} answered HTTP ${status}`);
      return JSON.parse(new TextDecoder().decode(body)) as unknown;
    }
  };

/**
 * The hop fetcher of edge runtimes: the runtime's fetch (no DNS of our own to pin, and a worker's fetch
 * reaches public hosts only), manual redirects, the same byte cap and time limit.
 */
export const createFetchDocumentFetcher = (options: { allowPrivate: boolean }): DocumentFetcher =>
  documentFetcherOver(async (url, deadline) => {
    const signal = AbortSignal.any([deadline, AbortSignal.timeout(TIMEOUT_MS)]);
    const res = await fetch(url, { headers: { accept: ACCEPT }, redirect: 'manual', signal }).catch((error: unknown) => {
      throw new Error((error as Error).name === 'TimeoutError' ? TOO_SLOW : String(error));
    });
    if (Number(res.headers.get('content-length') ?? 0) > MAX_BYTES) throw new Error(TOO_LARGE);
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = res.body?.getReader();
    while (reader) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BYTES) {
        await reader.cancel();
        throw new Error(TOO_LARGE);
      }
      chunks.push(value);
    }
    const body = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      body.set(chunk, at);
      at += chunk.byteLength;
    }
    return { status: res.status, location: res.headers.get('location') ?? undefined, body };
  }, options.allowPrivate);
