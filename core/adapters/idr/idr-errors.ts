import { AdapterError } from '../adapter-errors.ts';
import { GuardedFetchError } from '../../net/fetcher.ts';

/** One field error of the resolver (`{errors:[{field, message}]}`), with its field as the resolver names it. */
export interface IdrProblem {
  field: string;
  message: string;
}

/**
 * Why the resolver answered as it did, where callers act on the difference:
 * - `link-absent`: its "link not found" answer for a link id (the link is gone upstream);
 * - `document-absent`: no registration (document) for the identifier and qualifier path;
 * - `namespace-absent`: no scheme registered under the namespace;
 * - `auth`: it refused our API key (our configuration, never the caller's payload);
 * - `route-missing`: a 404 that is not the resolver's own answer (wrong base URL or path prefix).
 */
export type IdrReason = 'link-absent' | 'document-absent' | 'namespace-absent' | 'auth' | 'route-missing';

/** An AdapterError of the IDR with the resolver's field errors and the reason of a 404/401/403. */
export class IdrError extends AdapterError {
  constructor(
    kind: AdapterError['kind'],
    message: string,
    status?: number,
    readonly problems: IdrProblem[] = [],
    readonly reason?: IdrReason,
  ) {
    super(kind, 'IDR', message, status);
  }
}

const LINK_ABSENT = /^Link (index entry for ID|with ID) '.*' not found$/;
/** The link list's and the resolution's answers when the document does not exist. */
const DOCUMENT_ABSENT = /^(No link registration found|Cannot resolve link resolver)/;
const NAMESPACE_ABSENT = /^Identifier with namespace '.*' not found$/;
/** The link list's answer for a namespace no scheme is registered under (registration and resolution answer a `namespace` field error). */
const NAMESPACE_UNKNOWN = /^Namespace '.*' not found$/;

const parse = (text: string): Record<string, unknown> | undefined => {
  try {
    const body = JSON.parse(text) as unknown;
    return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

const problemsOf = (body: Record<string, unknown> | undefined): IdrProblem[] =>
  Array.isArray(body?.errors)
    ? (body.errors as unknown[]).flatMap((e) => {
        const p = e as Record<string, unknown>;
        return typeof p?.field === 'string' && typeof p.message === 'string' ? [{ field: p.field, message: p.message }] : [];
      })
    : [];

const messageOf = (body: Record<string, unknown> | undefined, problems: IdrProblem[], status: number): string => {
  if (problems.length) return problems.map((p) => `${p.field}: ${p.message}`).join('; ');
  for (const key of ['message', 'error']) if (typeof body?.[key] === 'string') return body[key] as string;
  return `HTTP ${status}`;
};

/**
 * A non-2xx answer of the resolver as an IdrError. Every answer of the resolver itself carries
 * `timestamp` and `path` (its one exception filter); a 404 without them, or with a message that is
 * none of its "not found" answers, comes from a route it does not have: our base URL is wrong.
 */
export const idrErrorOf = async (res: Response): Promise<IdrError> => {
  const body = parse(await res.text().catch(() => ''));
  const problems = problemsOf(body);
  const message = messageOf(body, problems, res.status);
  if (res.status === 401 || res.status === 403) {
    return new IdrError('unavailable', `the resolver refused our credentials (HTTP ${res.status}); check the instance's apiKey`, res.status, [], 'auth');
  }
  if (res.status >= 500) return new IdrError('unavailable', message, res.status);
  const fromResolver = typeof body?.timestamp === 'string' && typeof body.path === 'string';
  if (res.status === 404) {
    // The registrar's namespace is not registered there: a 404 field error on `namespace` (registration, resolution:
    // "Identifier not found") or the link list's "Namespace '…' not found" (resolver 4.0.0).
    if (fromResolver && (problems.some((p) => p.field === 'namespace') || NAMESPACE_UNKNOWN.test(message))) {
      return new IdrError('rejected', message, 404, problems, 'namespace-absent');
    }
    if (fromResolver && LINK_ABSENT.test(message)) return new IdrError('rejected', message, 404, [], 'link-absent');
    if (fromResolver && DOCUMENT_ABSENT.test(message)) return new IdrError('rejected', message, 404, [], 'document-absent');
    if (!fromResolver || !problems.length) {
      return new IdrError('unavailable', `the resolver has no such route (HTTP 404: ${message.slice(0, 120)}); check the instance's baseUrl`, 404, [], 'route-missing');
    }
  }
  if (res.status === 400 && NAMESPACE_ABSENT.test(message)) return new IdrError('rejected', message, 400, [], 'namespace-absent');
  return new IdrError('rejected', message, res.status, problems);
};

/** Sends one request; network failures and timeouts are `unavailable`, non-2xx answers IdrErrors. */
export const sendToIdr = async (send: () => Promise<Response>): Promise<Response> => {
  let res: Response;
  try {
    res = await send();
  } catch (error) {
    const why = error instanceof GuardedFetchError ? error.message : String(error);
    throw new IdrError('unavailable', `IDR service unreachable: ${why}`);
  }
  if (res.ok) return res;
  throw await idrErrorOf(res);
};

export const isIdrReason = (error: unknown, reason: IdrReason) => error instanceof IdrError && error.reason === reason;
