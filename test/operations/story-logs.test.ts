import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueBatchConsumer } from '../../consumers/jobs/issue-batch.ts';
import type { JobQueue } from '../../core/jobs/job-queue.ts';
import { createLogger } from '../../core/logging/logger.ts';
import { submit } from '../rig/batch-submission.ts';
import { startBatchWorkerRig } from '../rig/batch-worker-rig.ts';
import { issueBody, samplePayload, SAMPLES, type IssuanceRig } from '../rig/credential-fixtures.ts';
import { runJob, testWorkerDeps } from '../rig/jobs.ts';

/** The lines that tell a batch's story at info: each credential issued, and the batch's settlement, with ids and no payload. */
describe('logs that tell the story of a batch', () => {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger('info', (line) => lines.push(JSON.parse(line) as Record<string, unknown>));
  let rig: IssuanceRig;
  let jobs: JobQueue;
  let tenantId: string;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ rig, jobs, tenantId, close } = await startBatchWorkerRig(createLogger('error')));
  });
  afterAll(() => close?.());

  it('logs "Credential issued" per issued item and one "Batch settled" with its counts; no payload reaches a line', async () => {
    const good = issueBody('DigitalProductPassport', '0.7.0', samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, rig.did));
    const refused = issueBody('DigitalProductPassport', '0.7.0', samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, 'did:web:nobody.example'));
    const submitted = await submit(rig.t, rig.token, { items: [good, refused] });
    expect(submitted.status, submitted.text).toBe(202);
    const batchId = submitted.body.batchId as string;
    await runJob(issueBatchConsumer, { tenantId, batchId }, testWorkerDeps(rig.t.db, logger, jobs));

    const issued = lines.filter((line) => line.message === 'Credential issued');
    expect(issued).toHaveLength(1);
    expect(issued[0]).toMatchObject({ level: 'info', tenantId, credentialType: 'DigitalProductPassport', credentialId: expect.any(String) });
    const settled = lines.filter((line) => line.message === 'Batch settled');
    expect(settled).toEqual([
      expect.objectContaining({ level: 'info', batchId, tenantId, state: 'COMPLETED', itemCount: 2, issuedCount: 1, failedCount: 1, unknownCount: 0 }),
    ]);
    const text = JSON.stringify(lines);
    expect(text).not.toContain('credentialSubject');
    expect(text).not.toContain(rig.token);
  });
});
