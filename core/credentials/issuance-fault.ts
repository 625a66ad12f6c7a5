/**
 * Whether a failed issuance had already asked the VC service to sign (spec "Batch issuance": a fault
 * before dispatch is retried; after it, a credential may exist, so the outcome is unknown). The
 * pipeline marks every error it lets out after the sign request was sent; the error itself stays as
 * it was (an ApiError renders as always, anything else stays a sanitised 500).
 */
const DISPATCHED = Symbol('issuance.dispatched');

export const markDispatched = <E>(error: E): E => {
  if (error !== null && typeof error === 'object' && !Object.isFrozen(error)) {
    Object.defineProperty(error, DISPATCHED, { value: true, enumerable: false });
  }
  return error;
};

/** True when the error came from after the credential was sent for signing. */
export const isDispatchedFault = (error: unknown): boolean =>
  error !== null && typeof error === 'object' && (error as Record<symbol, unknown>)[DISPATCHED] === true;
