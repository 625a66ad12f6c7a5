import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request } from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { isPublicAddress } from '../core/service-kit/public-address.ts';

/** Fetches a did:web document: the parsed JSON body, or throws with the reason. */
export type DocumentFetcher = (url: URL) => Promise<unknown>;

const MAX_BYTES = 1_048_576;
const TIMEOUT_MS = 10_000;
/** For the whole fetch, redirects and body included: a server sending a byte now and then cannot hold us. */
const DEADLINE_MS = 15_000;
const MAX_REDIRECTS = 3;

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
    const options = { method: 'GET', lookup, ca, signal, timeout: TIMEOUT_MS, headers: { accept: 'application/did+json, application/json' } };
    const req = request(url, options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BYTES) {
          req.destroy(new Error('the DID document is larger than 1 MiB'));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('the DID document did not arrive within 10 s')));
    req.on('error', reject);
    req.end();
  });

/**
 * did:web documents over HTTPS only, with the bounds and the address rule of the main API's guarded
 * fetch (`core/service-kit/public-address.ts`, the same test table): public addresses on every hop
 * (unless `allowPrivate`), 10 s of silence per hop, 15 s for the whole fetch, 1 MiB, at most 3 redirects.
 */
export const createDocumentFetcher =
  (options: {
    allowPrivate: boolean;
    /** Trusted certificates instead of Node's bundle (tests). */
    ca?: string;
    /** The overall deadline (tests shorten it). */
    deadlineMs?: number;
  }): DocumentFetcher =>
  async (start) => {
    const lookup = guardedLookup(options.allowPrivate);
    const deadlineMs = options.deadlineMs ?? DEADLINE_MS;
    const signal = AbortSignal.timeout(deadlineMs);
    let url = start;
    for (let hop = 0; ; hop++) {
      if (url.protocol !== 'https:') throw new Error(`${url.href} is not HTTPS`);
      // An address written in the URL is connected to without a lookup: check it here.
      const literal = url.hostname.replace(/^\[|\]$/g, '');
      if (ipaddr.isValid(literal) && !options.allowPrivate && !isPublicAddress(literal)) throw new Error(`${url.host} is not a public address`);
      let answer;
      try {
        answer = await getOnce(url, lookup, options.ca, signal);
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
      return JSON.parse(body.toString('utf8')) as unknown;
    }
  };
