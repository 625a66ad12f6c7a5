/**
 * What the domain counts for `/metrics`, through a small interface that runs everywhere: the Node entries
 * (web process, worker) back it with prom-client (core/metrics/prometheus-recorder.ts); on edge runtimes,
 * and until a Node entry installs one, it is a no-op.
 */
export interface MetricsRecorder {
  /** One HTTP request: the route pattern it matched (`unmatched` for none), its method and status, how long it took. */
  httpRequest(route: string, method: string, status: number, seconds: number): void;
  /** One issuance: `issued`, `refused` (the request was wrong: a 4xx) or `failed`. */
  issuance(credentialType: string, outcome: 'issued' | 'refused' | 'failed'): void;
  /** One verification: `verified`, `not_verified` (checked to the end) or the failure code that stopped it. */
  verification(credentialType: string, outcome: string): void;
  /** One status-list index allocated (minted) on the VC service for a credential, by purpose. */
  statusAllocation(purpose: string): void;
  /** One read of the schema or context cache: a hit, or a miss that fetches (or falls back to a bundled copy). */
  documentCache(kind: string, hit: boolean): void;
  /** How long one step of an issuance or a verification took, whether it succeeded or not. */
  step<O extends keyof Steps>(operation: O, step: Steps[O], seconds: number): void;
}

/**
 * The steps timed, by operation. Issuance: `validate` (the payload against its schemas and contexts), `sign`
 * (status entries minted, then the credential signed: the VC service), `store` (the storage service),
 * `record` (the database transaction), `publish` (the identity resolver, when asked). Verification:
 * `retrieve` (the credential fetched), `decrypt`, `digest` (compared with the one given), `proof` (proof and
 * status: the VC service).
 */
export interface Steps {
  issuance: 'validate' | 'sign' | 'store' | 'record' | 'publish';
  verification: 'retrieve' | 'decrypt' | 'digest' | 'proof';
}

const NO_METRICS: MetricsRecorder = { httpRequest: () => {}, issuance: () => {}, verification: () => {}, statusAllocation: () => {}, documentCache: () => {}, step: () => {} };

let installed: MetricsRecorder = NO_METRICS;

/** Called once by a Node entry that serves `/metrics`. */
export const installMetricsRecorder = (recorder: MetricsRecorder): void => {
  installed = recorder;
};

export const metrics = (): MetricsRecorder => installed;

/** The credential's own type, the first in `type` other than `VerifiableCredential` (else `unknown`): a metric label. */
export const credentialTypeOf = (credential: Record<string, unknown> | undefined): string => {
  const types = Array.isArray(credential?.type) ? credential.type : [credential?.type];
  const own = types.find((type) => typeof type === 'string' && type !== 'VerifiableCredential' && type.length <= 100);
  return typeof own === 'string' ? own : 'unknown';
};
