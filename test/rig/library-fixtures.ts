import type { Database } from '../../db/client.ts';
import { credentials, externalCredentials, libraryRecords, verificationRuns } from '../../db/schema/index.ts';
import { createLogger } from '../../core/logging/logger.ts';
import { createJobQueue } from '../../core/jobs/job-queue.ts';
import { libraryVerifyGeneration } from '../../consumers/jobs/library-verify-generation.ts';
import { issueBody, SAMPLES, samplePayload, startIssuanceRig, systemServicesEnv, type IssuanceRig } from './credential-fixtures.ts';
import { runJob, testWorkerDeps } from './jobs.ts';
import type { AccountName } from './test-app.ts';

export const LIBRARY = '/api/v1/library';

export interface LibraryRig extends IssuanceRig {
  /** Issues a DPP as `account` (tenant A by default); `encrypt: false` stores it in the clear. */
  issue(options?: { encrypt?: boolean; account?: AccountName; tags?: string[] }): Promise<{ id: string; storageUri: string; decryptionKey: string | null }>;
  /** POST /library with an Idempotency-Key (fresh unless given). */
  register(body: Record<string, unknown>, options?: { key?: string; token?: string }): ReturnType<IssuanceRig['t']['call']>;
  /** Runs the worker's verify-generation handler for the record's pending generation (as the worker would). */
  verifyPending(recordId: string): Promise<void>;
  get(id: string, token?: string): ReturnType<IssuanceRig['t']['call']>;
  /** Settings a worker process needs to keep the system VC and storage instances pointed at this rig's services. */
  workerEnv: Record<string, string>;
}

export const annotations = (overrides: Record<string, unknown> = {}) => ({ displayName: 'Passport from a supplier', declaredCredentialType: 'DPP', ...overrides });

/** The issuance rig (real VC and storage services) plus the library's own steps. */
export const startLibraryRig = async (env: Record<string, string> = {}, vcEnv: Record<string, string> = {}): Promise<LibraryRig> => {
  const rig = await startIssuanceRig(env, vcEnv);
  const logger = createLogger('error');
  const jobs = createJobQueue(rig.t.databaseUrl, logger);
  const workerDeps = testWorkerDeps(rig.t.db, logger, jobs);
  const tokens = new Map<AccountName, string>([['tenantA', rig.token]]);
  const tokenOf = async (account: AccountName) => {
    if (!tokens.has(account)) tokens.set(account, await rig.t.token(account));
    return tokens.get(account)!;
  };
  const dids = new Map<AccountName, string>([['tenantA', rig.did]]);
  return {
    ...rig,
    issue: async ({ encrypt = true, account = 'tenantA', tags } = {}) => {
      const token = await tokenOf(account);
      if (!dids.has(account)) dids.set(account, await rig.didOf(account));
      const payload = samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, dids.get(account)!);
      const res = await rig.t.call('POST', '/api/v1/credentials', {
        token,
        body: issueBody('DigitalProductPassport', '0.7.0', payload, { storageOptions: { encrypt }, ...(tags ? { tags } : {}) }),
      });
      if (res.status !== 201) throw new Error(`issue failed: ${res.status} ${res.text}`);
      const got = await rig.t.call('GET', `/api/v1/credentials/${res.body.credentialId}`, { token });
      return { id: res.body.credentialId, storageUri: got.body.storageUri, decryptionKey: got.body.decryptionKey };
    },
    register: (body, { key = crypto.randomUUID(), token = rig.token } = {}) =>
      rig.t.call('POST', LIBRARY, { token, body, headers: { 'idempotency-key': key } }),
    verifyPending: async (recordId) => {
      const record = await rig.t.db.query.verificationRuns.findFirst({ where: (r, { and, eq }) => and(eq(r.recordId, recordId), eq(r.state, 'PENDING')) });
      if (!record) throw new Error(`no pending generation for ${recordId}`);
      await runJob(libraryVerifyGeneration, { tenantId: record.tenantId, recordId, generation: record.generation }, workerDeps);
    },
    workerEnv: systemServicesEnv(rig),
    get: (id, token = rig.token) => rig.t.call('GET', `${LIBRARY}/${id}`, { token }),
    close: async () => {
      await jobs.close();
      await rig.close();
    },
  };
};

export interface RecordFixture {
  origin?: 'NATIVE' | 'EXTERNAL';
  coreCredentialType?: string | null;
  issuerName?: string | null;
  issuerDid?: string | null;
  validFrom?: Date | null;
  validUntil?: Date | null;
  tags?: string[];
  encrypted?: boolean;
  organisationId?: string;
  facilityId?: string;
  productId?: string;
  /** The latest generation's summary; none leaves a native record on its issuance assertion. */
  summary?: 'pending' | 'verified' | 'not_conformant' | 'failed';
  createdAt?: Date;
}

/**
 * A library record written straight to the database, with its child row (copy coordinates that point
 * nowhere: lists and filters never read the copy) and optionally a settled or pending generation.
 */
export const insertLibraryRecord = async (db: Database, tenantId: string, f: RecordFixture = {}): Promise<string> => {
  const origin = f.origin ?? 'EXTERNAL';
  const [record] = await db
    .insert(libraryRecords)
    .values({
      tenantId,
      origin,
      coreCredentialType: f.coreCredentialType === undefined ? 'DigitalProductPassport' : f.coreCredentialType,
      issuerName: f.issuerName ?? null,
      issuerDid: f.issuerDid ?? null,
      validFrom: f.validFrom === undefined ? new Date() : f.validFrom,
      validUntil: f.validUntil ?? null,
      tags: f.tags ?? [],
      organisationId: f.organisationId ?? null,
      facilityId: f.facilityId ?? null,
      productId: f.productId ?? null,
      detailsStatus: 'EXTRACTED',
      ...(f.createdAt ? { createdAt: f.createdAt } : {}),
    })
    .returning({ id: libraryRecords.id });
  const id = record!.id;
  const coordinates = { storageUri: `https://storage.invalid/${id}.json`, storageExternalId: id };
  if (origin === 'NATIVE') {
    await db.insert(credentials).values({
      id,
      tenantId,
      credentialType: 'DigitalProductPassport',
      version: '0.7.0',
      issuerDid: f.issuerDid ?? 'did:web:issuer.example.com',
      ...coordinates,
      digestMultibase: `z${id}`,
      encrypted: f.encrypted ?? true,
      wrappedDecryptionKey: null,
      statusCapture: 'NONE',
    });
  } else {
    await db.insert(externalCredentials).values({
      id,
      tenantId,
      sourceUrl: `https://supplier.example.com/${id}.json`,
      sourceDigest: `zsource${id}`,
      contentDigest: `zcontent${id}`,
      encrypted: f.encrypted ?? false,
      contentKind: 'CREDENTIAL',
      ...coordinates,
      storageDigestMultibase: `zcopy${id}`,
      wrappedCopyKey: 'v1.none.none',
      displayName: `Record ${id}`,
      declaredCredentialType: 'DigitalProductPassport',
    });
  }
  if (f.summary) {
    const settled = f.summary !== 'pending';
    await db.insert(verificationRuns).values({
      recordId: id,
      tenantId,
      generation: origin === 'NATIVE' ? 2 : 1,
      state: f.summary === 'pending' ? 'PENDING' : f.summary === 'failed' ? 'FAILED' : 'COMPLETE',
      summary: f.summary,
      ...(settled ? { completedAt: new Date() } : {}),
      ...(f.summary === 'failed' ? { failureCode: 'VERIFICATION_UNAVAILABLE', failureMessage: 'x', failureRetryable: true } : {}),
    });
  }
  return id;
};
