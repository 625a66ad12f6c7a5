import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isPublicAddress } from '../core/service-kit/public-address.ts';
import { ACCEPT, documentFetcherOver, MAX_BYTES, TIMEOUT_MS, TOO_LARGE, TOO_SLOW, type DocumentFetcher } from './did-fetch.ts';

/**
 * The address guard sits in the connection's own DNS lookup, so the address checked is the one
 * connected to (no second resolution an attacker could answer differently).
 */
const guardedLookup =
  (allowPrivate: boolean): LookupFunction =>
  (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as unknown as LookupAddress[];
      const refused = list.find((a) => !allowPrivate && !isPublicAddress(a.address));
      if (refused) return callback(new Error(`${hostname} resolves to a non-public address`), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (!first) return callback(new Error(`${hostname} has no address`), '', 0);
      callback(null, first.address, first.family);
    });
  };

const getOnce = (url: URL, lookup: LookupFunction, ca: string | undefined, signal: AbortSignal) =>
  new Promise<{ status: number; location?: string; body: Buffer }>((resolve, reject) => {
    const options = { method: 'GET', lookup, ca, signal, timeout: TIMEOUT_MS, headers: { accept: ACCEPT } };
    const req = request(url, options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BYTES) {
          req.destroy(new Error(TOO_LARGE));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(TOO_SLOW)));
    req.on('error', reject);
    req.end();
  });

/** The Node service's did:web fetcher: node:https with the address guard in its DNS lookup (pinned). */
export const createDocumentFetcher = (options: {
  allowPrivate: boolean;
  /** Trusted certificates instead of Node's bundle (tests). */
  ca?: string;
  /** The overall deadline (tests shorten it). */
  deadlineMs?: number;
}): DocumentFetcher => {
  const lookup = guardedLookup(options.allowPrivate);
  return documentFetcherOver((url, signal) => getOnce(url, lookup, options.ca, signal), options.allowPrivate, options.deadlineMs);
};
