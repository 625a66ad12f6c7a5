/** What an adapter call carries so the service it reaches can tie its own log lines to ours. */
export interface CallContext {
  /** The request's, or for a batch item the item's (`<batch correlation id>-<index>`), correlation id. */
  correlationId?: string;
}

/**
 * The headers every adapter call carries (each adapter adds them in one place): `x-correlation-id`,
 * which the VC and storage services take as their own request's id and log. Trace context headers
 * belong here too.
 */
export const traceHeaders = (context: CallContext = {}): Record<string, string> =>
  context.correlationId ? { 'x-correlation-id': context.correlationId } : {};
