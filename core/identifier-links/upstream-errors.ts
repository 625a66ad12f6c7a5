import { AdapterError } from '../adapters/adapter-errors.ts';
import { IdrError, type IdrProblem } from '../adapters/idr/idr-errors.ts';
import { ApiError } from '../errors.ts';
import type { Logger } from '../logging/logger.ts';

/** Resolver field names → ours (rel is our additionalRels; context, title, hreflang … keep their names). */
const OUR_NAMES: Record<string, string> = { linkType: 'rel', targetUrl: 'href', mimeType: 'type', rel: 'additionalRels' };
const ourName = (name: string, indexes = '') => `${OUR_NAMES[name] ?? name}${indexes.replace(/\.(\d+)/g, '[$1]')}`;

/**
 * A resolver field name in the terms of a publish body: `responses.0.hreflang.1` → `links[0].hreflang[1]`;
 * a bare `linkType` (its vocabulary check names no index) → the first link with that rel.
 */
export const publishFieldName = (links: { rel: string }[]) => (problem: IdrProblem) => {
  const variant = /^responses\.(\d+)\.(\w+)((?:\.\d+)*)$/.exec(problem.field);
  if (variant) return `links[${variant[1]}].${ourName(variant[2]!, variant[3])}`;
  if (problem.field === 'linkType') {
    const i = links.findIndex((l) => problem.message.includes(`'${l.rel}'`));
    if (i >= 0) return `links[${i}].rel`;
  }
  return problem.field;
};

/** A resolver field name in the terms of a PATCH body: `hreflang.0` → `hreflang[0]`, `targetUrl` → `href`. */
export const patchFieldName = (problem: IdrProblem) => {
  const field = /^(\w+)((?:\.\d+)*)$/.exec(problem.field);
  return field ? ourName(field[1]!, field[2]) : problem.field;
};

export interface FailureContext {
  logger: Logger;
  idrServiceInstanceId: string;
  fieldName: (problem: IdrProblem) => string;
  /** The registrar's namespace the call was made under (named when the resolver does not know it). */
  namespace?: string;
  correlationId?: string;
}

/** What a 502 says for each way the resolver failed: fixed text naming the service, never its own words or addresses. */
const UNAVAILABLE_MESSAGES: Record<string, string> = {
  auth: "The identity resolver refused this instance's credentials; check the instance's apiKey",
  'route-missing': "The identity resolver did not answer at the configured address; check the instance's baseUrl",
  default: 'The identity resolver is unavailable; try again later',
};

/**
 * Upstream failures as the API reports them. The resolver refusing the caller's link is 422
 * IDR_REJECTED with its reasons in our field names (409 for its duplicate rule); its failing, timing
 * out, refusing our credentials or answering from a route it does not have is 502 IDR_UNAVAILABLE,
 * the last two logged at warn for the operator (the instance id, never the key). Other errors pass.
 */
export const idrFailure = (error: unknown, context: FailureContext): unknown => {
  if (!(error instanceof AdapterError)) return error;
  if (error.kind === 'unavailable') {
    const reason = error instanceof IdrError && (error.reason === 'auth' || error.reason === 'route-missing') ? error.reason : 'default';
    // The resolver's own words and the addresses it was reached at stay in the log.
    context.logger.warn(reason === 'default' ? 'Identity resolver failed' : 'Identity resolver instance is misconfigured', {
      correlationId: context.correlationId,
      idrServiceInstanceId: context.idrServiceInstanceId,
      status: error.status,
      ...(reason === 'default' ? {} : { reason }),
      detail: error.message,
    });
    return new ApiError(502, UNAVAILABLE_MESSAGES[reason]!, 'IDR_UNAVAILABLE');
  }
  if (error instanceof IdrError && error.reason === 'namespace-absent') {
    const which = context.namespace === undefined ? "the registrar's namespace" : `the registrar's namespace '${context.namespace}'`;
    return new ApiError(422, `The identity resolver does not know ${which}: register the namespace with the resolver first`, 'IDR_NAMESPACE_UNKNOWN');
  }
  const problems = error instanceof IdrError ? error.problems : [];
  const reasons = problems.length ? problems.map((p) => `${context.fieldName(p)}: ${p.message}`).join('; ') : error.message;
  if (error.status === 409) return new ApiError(409, `The identity resolver already has this link: ${reasons}`, 'LINK_ALREADY_PUBLISHED');
  return new ApiError(422, `The identity resolver refused the link: ${reasons}`, 'IDR_REJECTED');
};
