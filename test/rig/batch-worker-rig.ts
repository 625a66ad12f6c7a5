import { createJobQueue, type JobQueue } from '../../core/jobs/job-queue.ts';
import type { Logger } from '../../core/logging/logger.ts';
import { startIssuanceRig, type IssuanceRig } from './credential-fixtures.ts';

export interface BatchWorkerRig {
  rig: IssuanceRig;
  /** A producer over the rig's database: what the batch handlers enqueue continuations with. */
  jobs: JobQueue;
  /** tenantA's id. */
  tenantId: string;
  /** Stops the job queue, then the rig. */
  close(): Promise<void>;
}

/** The shared setup of the batch worker's tests: an issuance rig, a job queue over its database and tenantA. */
export const startBatchWorkerRig = async (logger: Logger): Promise<BatchWorkerRig> => {
  const rig = await startIssuanceRig();
  const jobs = createJobQueue(rig.t.databaseUrl, logger);
  const close = async () => {
    await jobs.close();
    await rig.close();
  };
  try {
    return { rig, jobs, tenantId: await rig.t.tenantOf('tenantA'), close };
  } catch (error) {
    await close();
    throw error;
  }
};
