import { ApiError } from '../errors.ts';
import type { Logger } from '../logging/logger.ts';
import { AdapterError } from './adapter-errors.ts';

/**
 * The one translation of an upstream failure into what a tenant sees: a stable code
 * (`<SERVICE>_REJECTED` 422, `<SERVICE>_UNAVAILABLE` 502) and a short message without internal
 * addresses or raw upstream bodies. The full detail goes to the log at warn with the correlation id.
 */
const SERVICE_NAMES: Record<AdapterError['service'], string> = {
  STORAGE: 'The storage service',
  IDR: 'The identity resolver',
  VC: 'The VC service',
};

/** URLs, host:port pairs and IP addresses an upstream message may carry. */
const ADDRESS = /\b[a-z][a-z0-9+.-]*:\/\/\S+|\[[0-9a-f:.]+\](?::\d+)?|\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b|\b[a-z0-9.-]+:\d{2,5}\b/gi;
const REASON_MAX_CHARS = 200;

/** An upstream refusal's reason, fit for a tenant: addresses replaced, one line, clipped. */
export const tenantSafeReason = (message: string): string => {
  const oneLine = message.replace(ADDRESS, '<address>').replace(/\s+/g, ' ').trim();
  return oneLine.length > REASON_MAX_CHARS ? `${oneLine.slice(0, REASON_MAX_CHARS)}…` : oneLine;
};

export interface FailureContext {
  logger: Logger;
  correlationId?: string;
  /** What we were doing, for the log and the message ("store the template"). */
  action: string;
}

/** The API error for an AdapterError (anything else is returned unchanged, to be rethrown). */
export const adapterFailure = (error: unknown, { logger, correlationId, action }: FailureContext): unknown => {
  if (!(error instanceof AdapterError)) return error;
  logger.warn('Upstream service failed', {
    correlationId,
    service: error.service,
    kind: error.kind,
    upstreamStatus: error.status,
    action,
    detail: error.message,
  });
  const who = SERVICE_NAMES[error.service];
  if (error.kind === 'rejected') {
    return new ApiError(422, `${who} refused to ${action}: ${tenantSafeReason(error.message)}`, `${error.service}_REJECTED`);
  }
  return new ApiError(502, `${who} is unavailable; could not ${action}`, `${error.service}_UNAVAILABLE`);
};
