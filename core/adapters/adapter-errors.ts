import type { z } from 'zod';
import { GuardedFetchError } from '../net/fetcher.ts';

/**
 * What went wrong upstream, in the two kinds callers act on: the service refused the payload
 * (`rejected`, its status and message kept) or could not be reached or failed (`unavailable`).
 */
export class AdapterError extends Error {
  constructor(
    readonly kind: 'rejected' | 'unavailable',
    readonly service: 'STORAGE' | 'IDR' | 'VC',
    message: string,
    readonly status?: number,
    /**
     * True when the service certainly did not act on the request: it was never sent (connection
     * refused, name unresolved, address refused by the guard), or the service answered an error
     * status. False when it may have acted: a timeout or reset after sending, a 504 (a gateway gave
     * up waiting), or a 2xx answer we could not read.
     */
    readonly notDone = false,
  ) {
    super(message);
  }
}

/** Whether an error says the upstream call it comes from certainly did nothing there. */
export const upstreamDidNothing = (error: unknown): boolean => error instanceof AdapterError && error.notDone;

/** An error status the service answered itself: it refused or failed, and did not act (a 504 is a gateway timing out). */
const answeredNotDone = (status: number) => status !== 504;

/** Reads an upstream error body's message (`message`, `error` or `detail`), else the status text. */
const upstreamMessage = async (res: Response): Promise<string> => {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    for (const key of ['message', 'error', 'detail']) if (typeof body[key] === 'string') return body[key] as string;
  } catch {}
  return text.slice(0, 200) || `HTTP ${res.status}`;
};

/** Calls upstream through the guarded fetcher and turns failures into AdapterErrors. */
export const callUpstream = async (
  service: AdapterError['service'],
  send: () => Promise<Response>,
): Promise<Response> => {
  let res: Response;
  try {
    res = await send();
  } catch (error) {
    const why = error instanceof GuardedFetchError ? error.message : String(error);
    const notSent = error instanceof GuardedFetchError && error.notSent;
    throw new AdapterError('unavailable', service, `${service} service unreachable: ${why}`, undefined, notSent);
  }
  if (res.ok) return res;
  const message = await upstreamMessage(res);
  throw new AdapterError(res.status >= 500 ? 'unavailable' : 'rejected', service, message, res.status, answeredNotDone(res.status));
};

/**
 * A 2xx answer's JSON body in the shape the contract promises. Anything else (not JSON, wrong shape)
 * is the upstream failing, not our payload being refused: `unavailable`, like a bad gateway.
 */
export const upstreamJson = async <T>(service: AdapterError['service'], res: Response, schema: z.ZodType<T>): Promise<T> => {
  const text = await res.text().catch(() => '');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AdapterError('unavailable', service, `${service} service answered with a body that is not JSON`, res.status);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
    throw new AdapterError('unavailable', service, `${service} service answered with an unexpected body (${where}${issue.message})`, res.status);
  }
  return parsed.data;
};
