import { GuardedFetchError, type Fetcher, type GuardOptions } from './fetcher.ts';
import { publicUrlProblem } from './public-url.ts';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The guarded fetch for edge runtimes, where DNS cannot be resolved or pinned from code: every hop's
 * URL is checked (scheme, credentials, literal private addresses and local names), redirects are
 * followed by hand (at most 3), and size and time are capped. The Node processes use
 * `guarded-fetch.ts`, which also checks what names resolve to.
 */
export const createEdgeGuardedFetch = (options: GuardOptions): Fetcher => {
  const maxRedirects = options.maxRedirects ?? 3;
  const maxBytes = options.maxBytes ?? 1024 * 1024;
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
        throw new GuardedFetchError('network', String(error));
      }
      const location = res.headers.get('location');
      if (REDIRECTS.has(res.status) && location) {
        if (redirects >= maxRedirects) throw new GuardedFetchError('too-many-redirects', `More than ${maxRedirects} redirects`);
        url = new URL(location, url).href;
        if (res.status === 303) request = { ...request, method: 'GET', body: undefined };
        continue;
      }
      const body = new Uint8Array(await res.arrayBuffer());
      if (body.byteLength > maxBytes) throw new GuardedFetchError('too-large', `Response larger than ${maxBytes} bytes`);
      return new Response(res.status === 204 || res.status === 304 ? null : body, { status: res.status, headers: res.headers });
    }
  };
};
