import { createServer, type Server } from 'node:http';
import { sql } from 'drizzle-orm';
import { Gauge, type Registry } from 'prom-client';
import type { Database } from '../db/client.ts';
import { ConfigError } from '../core/errors.ts';
import type { Logger } from '../core/logging/logger.ts';
import { createPrometheusRecorder } from '../core/metrics/prometheus-recorder.ts';
import { installMetricsRecorder } from '../core/metrics/recorder.ts';
import { createMetricsRegistry, metricsResponse, readMetricsToken } from '../core/service-kit/metrics-endpoint.ts';
import { readInteger, readText, type EnvSource } from '../core/settings/env-readers.ts';

/**
 * WORKER_METRICS_PORT (unset: the worker keeps no port, as the spec says) and BACKLOG_ALERT_SECONDS (600):
 * a queued batch item or pending library run older than this is a backlog.
 */
export const readWorkerMetricsSettings = (env: EnvSource) => {
  const portText = readText(env, 'WORKER_METRICS_PORT');
  const port = portText === undefined ? undefined : readInteger(env, 'WORKER_METRICS_PORT', 0, { min: 1, max: 65535 });
  const token = readMetricsToken(env);
  if (port !== undefined && !token) {
    throw new ConfigError('WORKER_METRICS_PORT needs METRICS_BEARER_TOKEN: the worker serves /metrics only to that bearer');
  }
  return { port, token, backlogAlertSeconds: readInteger(env, 'BACKLOG_ALERT_SECONDS', 600, { min: 1 }) };
};

const rowsOf = async <T extends Record<string, unknown>>(db: Database, query: ReturnType<typeof sql>) => (await db.execute<T>(query)) as unknown as T[];

/**
 * Seconds the oldest waiting work has waited: a batch with queued items (its items were queued when it was
 * submitted; the open batches' index serves this) and a pending library verification run; 0 for none.
 */
export const oldestWaiting = async (db: Database): Promise<{ batch_item: number; library_run: number }> => {
  const [row] = await rowsOf<{ batch_item: number; library_run: number }>(
    db,
    sql`select
      coalesce((select extract(epoch from now() - min(created_at)) from credential_batches where state in ('QUEUED', 'RUNNING') and queued_count > 0), 0)::float8 as batch_item,
      coalesce((select extract(epoch from now() - min(requested_at)) from verification_runs where state = 'PENDING'), 0)::float8 as library_run`,
  );
  return { batch_item: Number(row?.batch_item ?? 0), library_run: Number(row?.library_run ?? 0) };
};

/**
 * The worker's health on the backlog, checked with each heartbeat: a warn line when the oldest waiting work
 * passes BACKLOG_ALERT_SECONDS, an info line when it is back under (not once per heartbeat in between).
 */
export const backlogWatch = (db: Database, logger: Logger, env: EnvSource) => {
  const { backlogAlertSeconds } = readWorkerMetricsSettings(env);
  const behind = new Set<string>();
  return async (): Promise<void> => {
    for (const [kind, age] of Object.entries(await oldestWaiting(db))) {
      if (age > backlogAlertSeconds && !behind.has(kind)) {
        behind.add(kind);
        logger.warn('Backlog: work waits longer than BACKLOG_ALERT_SECONDS', { kind, oldestSeconds: Math.round(age), backlogAlertSeconds });
      } else if (age <= backlogAlertSeconds && behind.delete(kind)) {
        logger.info('Backlog cleared', { kind, oldestSeconds: Math.round(age), backlogAlertSeconds });
      }
    }
  };
};

/** Gauges read from the database at each scrape: queues, batch items by state, and the backlog. */
const registerWorkerGauges = (registry: Registry, db: Database, backlogAlertSeconds: number) => {
  const queued = async () =>
    rowsOf<{ queue: string; depth: number; oldest: number }>(
      db,
      sql`select name as queue, count(*)::int as depth, coalesce(extract(epoch from now() - min(created_on)), 0)::float8 as oldest
        from pgboss.job where state in ('created', 'retry') group by name`,
    );
  new Gauge({
    name: 'css_queue_depth',
    help: 'Jobs waiting in each queue (created or waiting for a retry)',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await queued()) this.set({ queue: row.queue }, Number(row.depth));
    },
  });
  new Gauge({
    name: 'css_queue_oldest_job_age_seconds',
    help: 'Age of the oldest waiting job of each queue, in seconds',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await queued()) this.set({ queue: row.queue }, Number(row.oldest));
    },
  });
  new Gauge({
    name: 'css_batch_items',
    help: 'Batch items by state',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const rows = await rowsOf<{ state: string; count: number }>(db, sql`select state, count(*)::int as count from credential_batch_items group by state`);
      for (const row of rows) this.set({ state: row.state }, Number(row.count));
    },
  });
  new Gauge({
    name: 'css_backlog_oldest_seconds',
    help: 'Age of the oldest queued batch item and pending library verification run, in seconds',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      for (const [kind, age] of Object.entries(await oldestWaiting(db))) this.set({ kind }, age);
    },
  });
  new Gauge({
    name: 'css_backlog',
    help: `1 when the oldest queued batch item or pending library run is older than BACKLOG_ALERT_SECONDS (${backlogAlertSeconds})`,
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      for (const [kind, age] of Object.entries(await oldestWaiting(db))) this.set({ kind }, age > backlogAlertSeconds ? 1 : 0);
    },
  });
};

/**
 * With WORKER_METRICS_PORT set: the prom-client recorder installed (issuances of batch items), the worker's
 * gauges, and `/metrics` on that port for the METRICS_BEARER_TOKEN bearer. Unset: nothing, no port.
 */
export const startWorkerMetrics = async (env: EnvSource, db: Database, logger: Logger, serviceName: string): Promise<{ close(): Promise<void> } | undefined> => {
  const { port, token, backlogAlertSeconds } = readWorkerMetricsSettings(env);
  if (port === undefined) return undefined;
  const registry: Registry = createMetricsRegistry(serviceName);
  installMetricsRecorder(createPrometheusRecorder(registry));
  registerWorkerGauges(registry, db, backlogAlertSeconds);
  const server: Server = createServer((incoming, outgoing) => {
    const headers = new Headers();
    if (incoming.headers.authorization) headers.set('authorization', incoming.headers.authorization);
    const request = new Request(`http://worker${incoming.url ?? '/'}`, { method: incoming.method, headers });
    void metricsResponse(request, registry, token)
      .then(async (response = new Response('not found\n', { status: 404 })) => {
        outgoing.writeHead(response.status, Object.fromEntries(response.headers));
        outgoing.end(await response.text());
      })
      .catch((error: unknown) => {
        logger.warn('Metrics scrape failed', { error: String(error) });
        outgoing.writeHead(500).end();
      });
  });
  await new Promise<void>((listening, failed) => {
    server.once('error', failed);
    server.listen(port, readText(env, 'HOST') ?? '0.0.0.0', () => listening());
  });
  logger.info('Worker metrics listening', { port });
  return {
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((closed) => server.close(() => closed()));
    },
  };
};
