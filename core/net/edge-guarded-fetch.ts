import { failedBeforeConnecting, GuardedFetchError, MAX_RESPONSE_BYTES, landedAt, redirectedRequest, type Fetcher, type GuardOptions } from './fetcher.ts';
import { publicUrlProblem } from './public-url.ts';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The body, refused as soon as it (or its declared length) passes the cap, without buffering the rest. */
const readCapped = async (res: Response, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> => {
  const tooLarge = () => new GuardedFetchError('too-large', `Response larger than ${maxBytes} bytes`);
  if (Number(res.headers.get('content-length') ?? 0) > maxBytes) {
    await res.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = res.body?.getReader();
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
};

/**
 * The guarded fetch for edge runtimes, where DNS cannot be resolved or pinned from code: every hop's
 * URL is checked (scheme, credentials, literal private addresses and local names), redirects are
 * followed by hand (at most 3), and size and time are capped. The Node processes use
 * `guarded-fetch.ts`, which also checks what names resolve to.
 */
export const createEdgeGuardedFetch = (options: GuardOptions): Fetcher => {
  const maxRedirects = options.maxRedirects ?? 3;
  const maxBytes = options.maxBytes ?? MAX_RESPONSE_BYTES;
  const timeoutMs = options.timeoutMs ?? 10_000;
  return async (input, init = {}) => {
    const signal = AbortSignal.timeout(timeoutMs);
    let url = input;
    let request: RequestInit = init;
    for (let redirects = 0; ; redirects++) {
      const problem = publicUrlProblem(url, options.allowPrivate);
      if (problem) throw new GuardedFetchError(/private|local/.test(problem) ? 'blocked-address' : 'bad-url', `${url}: ${problem}`);
      const headers = new Headers(request.headers);
      headers.set('user-agent', options.userAgent);
      let res: Response;
      try {
        res = await fetch(url, { ...request, headers, redirect: 'manual', signal });
      } catch (error) {
        if (signal.aborted) throw new GuardedFetchError('timeout', `No answer within ${timeoutMs} ms`);
        // Node's fetch names a refused connection in `cause.code`; a runtime that does not is taken as unknown.
        const notSent = redirects === 0 && failedBeforeConnecting((error as { cause?: unknown } | null)?.cause);
        throw new GuardedFetchError('network', String(error), { notSent });
      }
      const location = res.headers.get('location');
      if (REDIRECTS.has(res.status) && location) {
        if (redirects >= maxRedirects) throw new GuardedFetchError('too-many-redirects', `More than ${maxRedirects} redirects`);
        await res.body?.cancel();
        const next = new URL(location, url);
        request = redirectedRequest(request, res.status, new URL(url), next);
        url = next.href;
        continue;
      }
      let body: Uint8Array<ArrayBuffer>;
      try {
        body = await readCapped(res, maxBytes);
      } catch (error) {
        if (error instanceof GuardedFetchError) throw error;
        if (signal.aborted) throw new GuardedFetchError('timeout', `No answer within ${timeoutMs} ms`);
        throw new GuardedFetchError('network', String(error));
      }
      return landedAt(new Response(res.status === 204 || res.status === 304 ? null : body, { status: res.status, headers: res.headers }), new URL(url));
    }
  };
};
