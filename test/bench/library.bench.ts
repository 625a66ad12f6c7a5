import { availableParallelism } from 'node:os';
import { eq, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { startWorker } from '../../consumers/worker.ts';
import { payloadChecksFor } from '../../core/credentials/issuance-deps.ts';
import { domainDeps } from '../../core/deps.ts';
import { createJobQueue } from '../../core/jobs/job-queue.ts';
import { createLogger } from '../../core/logging/logger.ts';
import { listRecordIds, loadRecordViews, type LibraryFilters } from '../../core/library/record-queries.ts';
import { requestVerification } from '../../core/library/request-verification.ts';
import { runGeneration } from '../../core/library/run-generation.ts';
import { SYSTEM_SERVICE_IDS } from '../../core/settings/system-services.ts';
import { serviceInstances, verificationRuns } from '../../db/schema/index.ts';
import { startStorage } from '../../storage-service/test/storage-harness.ts';
import { startVcService } from '../../vc-service/test/vc-harness.ts';
import { issueBody, SAMPLES, samplePayload, storageConfig, systemServicesEnv } from '../rig/credential-fixtures.ts';
import { testWorkerDeps, testWorkerEnv } from '../rig/jobs.ts';
import { callJson, listen, measure, median, pairedRounds, recordRatio, ROUNDS, startBenchStack } from './lib.ts';

/**
 * The credential library (issue 16 §3).
 * 1. `GET /library` over 10,000 records (native and external, tags, settled and pending generations)
 *    with filters and tags, through the whole platform, paired against a floor that runs the very same
 *    SQL (`listRecordIds` + `loadRecordViews`) behind a bare Hono route. Target: p99 < 50 ms.
 * 2. Verification generations per second on one worker for credentials issued here: the real worker
 *    (pg-boss, its consumers) over the real VC and storage services, against a floor that runs the same
 *    generation step (`runGeneration`) in a loop without the queue. Target: ≥ 200 generations/s.
 */
const RECORDS = 10_000;
const ISSUED = Number(process.env.BENCH_LIBRARY_ISSUED ?? 200);
const logger = createLogger('error');
const stack = await startBenchStack({ FETCH_ALLOW_PRIVATE_URLS: 'true' });
const storage = await startStorage('local');
// As deployed: one VC service process per CPU (the test harness's default is one).
const vc = await startVcService({ databaseUrl: stack.databaseUrl, env: { LOG_LEVEL: 'error', WORKERS: String(availableParallelism()) } });
const jobs = createJobQueue(stack.databaseUrl, logger);
try {
  const token = await stack.token();
  const api = `${stack.api.url}/api/v1`;
  await callJson(`${api}/library`, { token });
  const tenantId = (await stack.db.query.users.findFirst())!.tenantId;

  // 1. Ten thousand records written straight to the database (this part is about reading them).
  // Two of twenty tags (t0…t19) per record.
  await stack.sql`
    with made as (
      insert into library_records (id, tenant_id, origin, core_credential_type, issuer_name, issuer_did, valid_from, tags, details_status)
      select 'bench' || g, ${tenantId}, case when g % 2 = 0 then 'NATIVE' else 'EXTERNAL' end::record_origin,
             (array['DigitalProductPassport','DigitalConformityCredential','DigitalFacilityRecord','DigitalTraceabilityEvent','DigitalIdentityAnchor'])[1 + g % 5],
             'Issuer ' || (g % 50), 'did:web:issuer' || (g % 50) || '.example', now() - (g || ' minutes')::interval,
             array['t' || (g % 20), 't' || ((g % 20 + 1 + g % 7) % 20)], 'EXTRACTED'
      from generate_series(1, ${RECORDS}) g returning id, origin
    )
    select count(*) from made`;
  await stack.sql`
    insert into credentials (id, tenant_id, credential_type, version, issuer_did, storage_uri, storage_external_id, digest_multibase, encrypted, status_capture)
    select id, tenant_id, 'DigitalProductPassport', '0.7.0', issuer_did, 'https://storage.invalid/' || id, id, 'z' || id, true, 'NONE'
    from library_records where tenant_id = ${tenantId} and origin = 'NATIVE' and id like 'bench%'`;
  await stack.sql`
    insert into external_credentials (id, tenant_id, source_url, source_digest, content_digest, encrypted, content_kind, storage_uri, storage_external_id, storage_digest_multibase, wrapped_copy_key, display_name, declared_credential_type)
    select id, tenant_id, 'https://supplier.example/' || id, 'zs' || id, 'zc' || id, false, 'CREDENTIAL', 'https://storage.invalid/' || id, id, 'zc' || id, 'v1.x.y', 'Record ' || id, core_credential_type
    from library_records where tenant_id = ${tenantId} and origin = 'EXTERNAL' and id like 'bench%'`;
  await stack.sql`
    insert into verification_runs (id, record_id, tenant_id, generation, state, summary, completed_at)
    select 'run' || id, id, tenant_id, 1, case when right(id, 1) = '3' then 'PENDING' else 'COMPLETE' end::verification_run_state,
           case when right(id, 1) = '3' then 'pending' else 'verified' end::verification_summary, case when right(id, 1) = '3' then null else now() end
    from library_records where tenant_id = ${tenantId} and origin = 'EXTERNAL' and id like 'bench%'`;
  await stack.sql`analyze`;

  const filtered: LibraryFilters = { types: ['DPP', 'DCC'], tags: ['t3', 't7'], excludeTags: ['t9'], status: 'verified' };
  const floor = new Hono();
  floor.get('/plain', async (c) => {
    const { ids, total } = await listRecordIds(stack.db, tenantId, {}, 'issuedAt:desc', { limit: 20, offset: 0 });
    return c.json({ rows: [...(await loadRecordViews(stack.db, tenantId, ids)).values()], total });
  });
  floor.get('/filtered', async (c) => {
    const { ids, total } = await listRecordIds(stack.db, tenantId, filtered, 'issuedAt:desc', { limit: 20, offset: 0 });
    return c.json({ rows: [...(await loadRecordViews(stack.db, tenantId, ids)).values()], total });
  });
  const floorServer = await listen((request) => floor.fetch(request));
  const auth = { authorization: `Bearer ${token}` };
  const filteredQuery = '?type=DPP&type=DCC&tag=t3&tag=t7&excludeTag=t9&status=verified&limit=20';
  const variant = (label: string, floorPath: string, apiPath: string) =>
    pairedRounds(`Library ${label} over ${RECORDS} records: real route vs same-SQL floor`, { name: `floor ${label}`, load: { url: `${floorServer.url}${floorPath}` } }, [
      { name: label, load: { url: `${api}/library${apiPath}`, headers: auth }, target: 0.7 },
    ]);
  try {
    await variant('GET /library', '/plain', '');
    await variant('GET /library filtered and tagged', '/filtered', filteredQuery);
    const p99 = await measure('GET /library filtered and tagged (p99)', { url: `${api}/library${filteredQuery}`, headers: auth });
    console.log(`GET /library filtered and tagged over ${RECORDS} records: p99 ${p99.p99} ms (target < 50 ms)`);
    recordRatio({ measured: 'GET /library filtered p99 headroom (50 ms ÷ p99)', reference: '50 ms', ratio: 50 / Math.max(p99.p99, 1), low: 50 / Math.max(p99.p99, 1), high: 50 / Math.max(p99.p99, 1), rounds: 1, target: 1, detail: `p99 ${p99.p99} ms` });
  } finally {
    await floorServer.close();
  }

  // 2. Credentials issued here through the API, then verified again and again by one worker.
  await stack.db.update(serviceInstances).set({ configEncrypted: await encrypt({ baseUrl: vc.url, apiKey: vc.apiKey, apiVersion: '1.0.0' }) }).where(eq(serviceInstances.id, SYSTEM_SERVICE_IDS.VC));
  await stack.db.update(serviceInstances).set({ configEncrypted: await encrypt(storageConfig(storage.url)) }).where(eq(serviceInstances.id, SYSTEM_SERVICE_IDS.STORAGE));
  const did = (await callJson(`${api}/dids`, { method: 'POST', token, expect: 201, body: { type: 'MANAGED', method: 'DID_WEB', alias: `bench-${Date.now()}` } })).did;
  const issued: string[] = [];
  for (let i = 0; i < ISSUED; i++) {
    const body = issueBody('DigitalProductPassport', '0.7.0', samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, did));
    issued.push((await callJson(`${api}/credentials`, { method: 'POST', token, expect: 201, body })).credentialId);
  }
  const requestAll = async () => {
    for (const recordId of issued) await stack.db.transaction((tx) => requestVerification(tx, jobs, { tenantId, recordId, origin: 'NATIVE' }));
  };
  const pendingCount = async () =>
    (await stack.db.select({ n: sql<number>`count(*)::int` }).from(verificationRuns).where(sql`${verificationRuns.state} = 'PENDING' and ${verificationRuns.recordId} not like 'bench%'`))[0]!.n;

  const workerEnv = testWorkerEnv(stack.databaseUrl, systemServicesEnv({ vc, storage }));
  const workerDeps = testWorkerDeps(stack.db, logger);
  const deps = { ...domainDeps(workerDeps), payloadChecks: payloadChecksFor(workerDeps.fetcher, workerDeps.settings.documents) };
  const workerRates: number[] = [];
  const floorRates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Floor: the same generation step, called in a loop (no queue, no worker).
    await requestAll();
    const runs = await stack.db.select().from(verificationRuns).where(eq(verificationRuns.state, 'PENDING'));
    const mine = runs.filter((r) => issued.includes(r.recordId));
    await stack.sql`delete from pgboss.job where name = 'library.verify-generation' and state = 'created'`;
    const floorStart = performance.now();
    for (const run of mine) await runGeneration(deps, { tenantId, recordId: run.recordId, generation: run.generation });
    floorRates.push(mine.length / ((performance.now() - floorStart) / 1000));

    // The real worker: the generations are queued first, then one worker starts and drains them.
    await requestAll();
    const worker = await startWorker(workerEnv, logger);
    const start = performance.now();
    while ((await pendingCount()) > 0) await new Promise((r) => setTimeout(r, 20));
    workerRates.push(issued.length / ((performance.now() - start) / 1000));
    await worker.stop();
  }
  console.log(`\nVerification generations of ${ISSUED} credentials issued here (${ROUNDS} rounds)`);
  console.table([
    { run: 'floor: runGeneration in a loop', 'median gen/s': Math.round(median(floorRates)), 'per round': floorRates.map(Math.round).join(' ') },
    { run: 'one worker (pg-boss, consumers)', 'median gen/s': Math.round(median(workerRates)), 'per round': workerRates.map(Math.round).join(' ') },
  ]);
  const ratios = workerRates.map((rate, i) => rate / floorRates[i]!);
  recordRatio({ measured: 'generations/s, one worker', reference: 'same step in a loop', ratio: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios), rounds: ROUNDS, detail: `${Math.round(median(workerRates))} vs ${Math.round(median(floorRates))} gen/s` });
  recordRatio({ measured: 'generations/s, one worker vs 200/s target', reference: '200 gen/s', ratio: median(workerRates) / 200, low: Math.min(...workerRates) / 200, high: Math.max(...workerRates) / 200, rounds: ROUNDS, target: 1, detail: `${Math.round(median(workerRates))} gen/s` });
} finally {
  await jobs.close();
  await vc.stop();
  await storage.close();
  await stack.close();
}

async function encrypt(value: unknown): Promise<string> {
  const { SecretBox } = await import('../../core/crypto/secret-box.ts');
  const { TEST_ENCRYPTION_KEY } = await import('../rig/test-settings.ts');
  return new SecretBox(TEST_ENCRYPTION_KEY).encryptJson(value);
}
