import { ConfigError } from '../errors.ts';

/** How domain code makes outbound HTTP calls: Web-standard `fetch` shape, guarded underneath. */
export type Fetcher = (url: string, init?: RequestInit) => Promise<Response>;

export type FetchRefusal = 'blocked-address' | 'bad-url' | 'too-many-redirects' | 'too-large' | 'timeout' | 'network';

/** The response size cap of the guarded fetchers (and so of every adapter) unless a caller sets its own. */
export const MAX_RESPONSE_BYTES = 1_048_576;

/** An outbound call the guard refused or could not complete; `reason` says which. */
export class GuardedFetchError extends Error {
  /**
   * True when the request certainly never reached the other side: refused by the guard, a name that
   * does not resolve, or a connection refused. Anything else (a timeout, a reset, an answer too large)
   * may have come after the server received the request, so what it did is unknown.
   */
  readonly notSent: boolean;

  constructor(
    readonly reason: FetchRefusal,
    message: string,
    options: { notSent?: boolean } = {},
  ) {
    super(message);
    this.notSent = reason === 'blocked-address' || reason === 'bad-url' || options.notSent === true;
  }
}

/** Socket errors raised before a connection exists: nothing of the request was sent. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'ENOTFOUND', 'EAI_AGAIN']);

/** Whether a transport error (Node's `code`) happened before any byte of the request could be sent. */
export const failedBeforeConnecting = (error: unknown): boolean =>
  error !== null && typeof error === 'object' && NOT_CONNECTED.has(String((error as { code?: unknown }).code));

export interface GuardOptions {
  /** FETCH_ALLOW_PRIVATE_URLS exactly `true`. */
  allowPrivate: boolean;
  userAgent: string;
  maxRedirects?: number;
  maxBytes?: number;
  timeoutMs?: number;
  /** Which resolved addresses may be contacted when private ones are not allowed (default: public only). */
  addressPolicy?: (address: string) => boolean;
  /** Name resolution (default: the system resolver); tests supply answers to prove the checks. */
  resolve?: (host: string) => Promise<{ address: string; family: number }[]>;
  /** Certificate authorities trusted for HTTPS besides the system ones (Node; tests use a test CA). */
  ca?: string[];
}

/** Gives a response built by a guarded fetcher its final URL after redirects (`response.url`). */
export const landedAt = (response: Response, url: URL): Response =>
  Object.defineProperty(response, 'url', { value: url.href, enumerable: true });

export const DEFAULT_USER_AGENT = 'CredentialSupportService/1.0 (+https://github.com/uncefact)';

/**
 * RI_HTTP_USER_AGENT: non-blank Latin-1 text without control characters; unset or blank uses the
 * built-in value (the spec's rule for every worker setting).
 */
export const readUserAgent = (value: string | undefined): string => {
  if (value === undefined || value.trim() === '') return DEFAULT_USER_AGENT;
  // biome-ignore lint: control characters are exactly what is being refused.
  if (/[^\x20-\x7e\xa0-\xff]/.test(value)) {
    throw new ConfigError('RI_HTTP_USER_AGENT must be non-blank Latin-1 text without control characters');
  }
  return value;
};

/** Headers that carry credentials: never forwarded when a redirect leaves the original origin. */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'x-api-key'];

/**
 * The request for the next hop of a redirect: 303 (and 301/302 after a POST) become a GET without a
 * body, and a hop to another origin drops the credential headers, as browsers' fetch does.
 */
export const redirectedRequest = (init: RequestInit, status: number, from: URL, to: URL): RequestInit => {
  let next: RequestInit = init;
  if (status === 303 || ((status === 301 || status === 302) && (init.method ?? 'GET').toUpperCase() === 'POST')) {
    const headers = new Headers(init.headers);
    headers.delete('content-type');
    headers.delete('content-length');
    next = { ...next, method: 'GET', body: undefined, headers };
  }
  if (from.origin !== to.origin) {
    const headers = new Headers(next.headers);
    for (const name of CREDENTIAL_HEADERS) headers.delete(name);
    next = { ...next, headers };
  }
  return next;
};
