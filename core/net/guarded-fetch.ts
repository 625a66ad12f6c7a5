import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import ipaddr from 'ipaddr.js';
import { isPublicAddress, parsedUrlProblem } from './public-url.ts';
import { failedBeforeConnecting, GuardedFetchError, MAX_RESPONSE_BYTES, landedAt, redirectedRequest, type Fetcher, type GuardOptions } from './fetcher.ts';
import { rootCertificates } from 'node:tls';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const utf8 = new TextDecoder();
/** How many hosts' IP-literal verdicts a guarded fetcher keeps. */
const MAX_KNOWN_LITERALS = 256;

/**
 * The body of a guarded answer is in memory already (it was read whole to cap its size): `text`, `json`
 * and `arrayBuffer` read those bytes directly instead of through the Response's body stream, which costs
 * several times as much CPU for every upstream call. A body is still read once only, as fetch's are.
 * `bodyUsed` is answered here too: the Response's own getters build the body stream (under
 * @hono/node-server's Response, the whole undici Response), so they are consulted only once a caller
 * has taken that stream.
 */
const readsInMemory = (response: Response, body: Uint8Array): Response => {
  const proto = Object.getPrototypeOf(response) as object;
  let read = false;
  let streamed = false;
  const used = () => read || (streamed && (Reflect.get(proto, 'bodyUsed', response) as boolean));
  const take = () => {
    if (used()) throw new TypeError('Body is unusable: Body has already been read');
    read = true;
    return body;
  };
  return Object.defineProperties(response, {
    body: {
      get: () => {
        streamed = true;
        return Reflect.get(proto, 'body', response) as ReadableStream<Uint8Array> | null;
      },
    },
    bodyUsed: { get: used },
    text: { value: async () => utf8.decode(take()) },
    json: { value: async () => JSON.parse(utf8.decode(take())) as unknown },
    arrayBuffer: {
      value: async () => {
        const bytes = take();
        return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
      },
    },
  });
};

/**
 * A request's headers as Node's client takes them (lower-case names, our user agent unless the caller
 * sets one). The adapters pass plain objects: copied as they are, as a Headers would hold them (names
 * lower-cased, values trimmed, repeats joined); anything else goes through a Headers.
 */
const outboundHeaders = (given: HeadersInit | undefined, userAgent: string): Record<string, string> => {
  const headers: Record<string, string> = { 'user-agent': userAgent };
  if (given !== undefined && given !== null && Object.getPrototypeOf(given) === Object.prototype) {
    const seen = new Set<string>();
    for (const [name, raw] of Object.entries(given as Record<string, string>)) {
      const key = name.toLowerCase();
      const value = String(raw).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
      headers[key] = seen.has(key) ? `${headers[key]}, ${value}` : value;
      seen.add(key);
    }
    return headers;
  }
  new Headers(given).forEach((v, k) => {
    headers[k] = v;
  });
  return headers;
};

/**
 * The one outbound HTTP client for user-supplied URLs (Node): every hop's host is resolved and all
 * its addresses must be public (unless allowed), and the connection goes to the address that was
 * checked, so a DNS answer cannot change between the check and the connect (rebinding). At most
 * `maxRedirects` redirects, a response size cap, an overall timeout, and our user agent.
 */
export const createGuardedFetch = (options: GuardOptions): Fetcher => {
  const maxRedirects = options.maxRedirects ?? 3;
  const maxBytes = options.maxBytes ?? MAX_RESPONSE_BYTES;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const permitted = options.addressPolicy ?? isPublicAddress;
  const resolve = options.resolve ?? ((host: string) => lookup(host, { all: true }));
  const ca = options.ca ? [...rootCertificates, ...options.ca] : undefined;

  /** IP literals as parsed before (an adapter calls the same few hosts on every request); names are resolved every time. */
  const literals = new Map<string, { address: string; family: number } | null>();
  const literalAddress = (host: string) => {
    let known = literals.get(host);
    if (known === undefined) {
      known = ipaddr.isValid(host) ? { address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 } : null;
      if (literals.size >= MAX_KNOWN_LITERALS) literals.clear();
      literals.set(host, known);
    }
    return known;
  };

  const checkedAddress = async (url: URL): Promise<{ address: string; family: number }> => {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const literal = literalAddress(host);
    const addresses = literal
      ? [literal]
      : await resolve(host).catch(() => {
          throw new GuardedFetchError('network', `Could not resolve ${host}`, { notSent: true });
        });
    if (!options.allowPrivate && addresses.some((a) => !permitted(a.address))) {
      throw new GuardedFetchError('blocked-address', `${host} resolves to a private or reserved address`);
    }
    return addresses[0]!;
  };

  const hop = (url: URL, init: RequestInit, pinned: { address: string; family: number }, signal: AbortSignal) =>
    new Promise<{ status: number; headers: [string, string][]; location?: string; body: Uint8Array }>((resolve, reject) => {
      const headers = outboundHeaders(init.headers, options.userAgent);
      const payload = init.body === undefined || init.body === null ? undefined : (init.body as string | Uint8Array);
      if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(
        url,
        {
          method: init.method ?? 'GET',
          headers,
          signal,
          ...(ca ? { ca } : {}),
          lookup: ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) =>
            opts.all ? cb(null, [pinned]) : cb(null, pinned.address, pinned.family)) as never,
        },
        (res: IncomingMessage) => {
          const declared = Number(res.headers['content-length'] ?? Number.NaN);
          if (declared > maxBytes) {
            res.destroy();
            reject(new GuardedFetchError('too-large', `Response larger than ${maxBytes} bytes`));
            return;
          }
          const chunks: Buffer[] = [];
          let total = 0;
          res.on('data', (chunk: Buffer) => {
            total += chunk.length;
            if (total > maxBytes) {
              res.destroy();
              reject(new GuardedFetchError('too-large', `Response larger than ${maxBytes} bytes`));
              return;
            }
            chunks.push(chunk);
          });
          res.on('end', () => {
            // Name-value pairs: the Response builds its Headers from them once (no Headers copied into another).
            const out: [string, string][] = [];
            for (const [k, v] of Object.entries(res.headers)) {
              if (v !== undefined) out.push([k, Array.isArray(v) ? v.join(', ') : v]);
            }
            resolve({ status: res.statusCode ?? 0, headers: out, location: res.headers.location, body: new Uint8Array(Buffer.concat(chunks)) });
          });
          res.on('error', reject);
        },
      );
      req.on('error', (error) => reject(error));
      if (payload !== undefined) req.write(payload);
      req.end();
    });

  return async (input, init = {}) => {
    const signal = AbortSignal.timeout(timeoutMs);
    let url: URL;
    try {
      url = new URL(input);
    } catch {
      throw new GuardedFetchError('bad-url', `Not an absolute URL: ${input}`);
    }
    let request = init;
    for (let redirects = 0; ; redirects++) {
      // Scheme and userinfo rules here; addresses are judged on what the name resolves to.
      const problem = parsedUrlProblem(url, true);
      if (problem) throw new GuardedFetchError('bad-url', `${url.host}: ${problem}`);
      const pinned = await checkedAddress(url);
      let answer;
      try {
        answer = await hop(url, request, pinned, signal);
      } catch (error) {
        if (error instanceof GuardedFetchError) throw error;
        if (signal.aborted) throw new GuardedFetchError('timeout', `No answer from ${url.host} within ${timeoutMs} ms`);
        throw new GuardedFetchError('network', `${url.host}: ${error instanceof Error ? error.message : String(error)}`, {
          // A redirect hop's failure says nothing of the first request, which was answered.
          notSent: redirects === 0 && failedBeforeConnecting(error),
        });
      }
      const location = answer.location;
      if (REDIRECTS.has(answer.status) && location) {
        if (redirects >= maxRedirects) throw new GuardedFetchError('too-many-redirects', `More than ${maxRedirects} redirects`);
        const next = new URL(location, url);
        request = redirectedRequest(request, answer.status, url, next);
        url = next;
        continue;
      }
      const empty = answer.status === 204 || answer.status === 304;
      const response = new Response(empty ? null : (answer.body as Uint8Array<ArrayBuffer>), {
        status: answer.status,
        headers: answer.headers,
      });
      return landedAt(empty ? response : readsInMemory(response, answer.body), url);
    }
  };
};
