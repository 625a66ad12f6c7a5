import { Counter, Histogram, type Registry } from 'prom-client';
import { httpRequestHistogram } from '../service-kit/metrics-endpoint.ts';
import type { MetricsRecorder } from './recorder.ts';

/** The Node backing of the metrics recorder (web process and worker): prom-client metrics on the process's registry. */
export const createPrometheusRecorder = (registry: Registry): MetricsRecorder => {
  const requests = httpRequestHistogram(registry);
  const issuances = new Counter({
    name: 'css_issuances_total',
    help: 'Credential issuances (single and batch items) by credential type and outcome (issued, refused, failed)',
    labelNames: ['credential_type', 'outcome'] as const,
    registers: [registry],
  });
  const verifications = new Counter({
    name: 'css_verifications_total',
    help: 'Credential verifications by credential type and outcome (verified, not_verified, or the failure code)',
    labelNames: ['credential_type', 'outcome'] as const,
    registers: [registry],
  });
  const allocations = new Counter({
    name: 'css_status_list_allocations_total',
    help: 'Status-list indexes allocated on the VC service for issued credentials, by purpose',
    labelNames: ['purpose'] as const,
    registers: [registry],
  });
  const cacheReads = new Counter({
    name: 'css_document_cache_reads_total',
    help: 'Schema and JSON-LD context cache reads, by kind and result (hit or miss)',
    labelNames: ['kind', 'result'] as const,
    registers: [registry],
  });
  const steps = new Histogram({
    name: 'css_step_seconds',
    help: 'Duration of each step of issuance (single and batch items: validate, sign, store, record, publish) and of verification (retrieve, decrypt, digest, proof)',
    labelNames: ['operation', 'step'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  return {
    step: (operation, step, seconds) => steps.observe({ operation, step }, seconds),
    statusAllocation: (purpose) => allocations.inc({ purpose }),
    documentCache: (kind, hit) => cacheReads.inc({ kind, result: hit ? 'hit' : 'miss' }),
    httpRequest: (route, method, status, seconds) => requests.observe({ route, method, status: String(status) }, seconds),
    issuance: (credentialType, outcome) => issuances.inc({ credential_type: credentialType, outcome }),
    verification: (credentialType, outcome) => verifications.inc({ credential_type: credentialType, outcome }),
  };
};
