import type { Http2Bindings, HttpBindings } from '@hono/node-server';
import { correlationIdFor, type CorrelatedBindings } from './correlation-id.ts';

/** What the Node adapter hands the app beside the request: its request and response objects. */
export type NodeBindings = HttpBindings | Http2Bindings;

type FetchHandler = (request: Request, env: NodeBindings & CorrelatedBindings) => Response | Promise<Response>;

/**
 * The app as the Node server (@hono/node-server) calls it. The request's correlation id is chosen here,
 * by the platform's rule, written on the Node response itself and handed to the app in its bindings; the
 * app then adds no header of its own, so an ordinary response carries only its content type, as plain
 * headers, which the adapter writes at once instead of building and copying a `Headers` object for every
 * response. Every response of the process carries the id, those the adapter makes itself included.
 */
export const nodeFetch =
  (fetch: FetchHandler) =>
  (request: Request, env: NodeBindings): Response | Promise<Response> => {
    const inbound = env.incoming.headers['x-correlation-id'];
    const correlationId = correlationIdFor(typeof inbound === 'string' ? inbound : undefined);
    env.outgoing.setHeader('x-correlation-id', correlationId);
    return fetch(request, { ...env, correlationId });
  };
