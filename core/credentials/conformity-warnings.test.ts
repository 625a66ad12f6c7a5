import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle, type Queryable } from '../../db/client.ts';
import { tenants } from '../../db/schema/index.ts';
import { SYSTEM_TENANT_ID } from '../../db/system-tenant.ts';
import { createTestDatabase, type TestDatabase } from '../../test/rig/databases.ts';
import { applySchemeDocuments } from '../conformity/scheme-document.ts';
import { conformityWarnings, hasConformityChecks } from './conformity-warnings.ts';
import { COPPERMARK_SCHEME, RBA_SCHEME } from './test-support/conformity-catalogue.ts';
import { readSample } from './test-support/offline.ts';

const MINE = '0.7.0-prerelease/dcc/ConformityCredential_instance.json';
const SMELTER = '0.7.0-prerelease/dcc/ConformityCredential_smelter_instance.json';
const BATTERY = '0.7.0-prerelease/dcc/ConformityCredential_battery_instance.json';

let database: TestDatabase;
let handle: DatabaseHandle;

beforeAll(async () => {
  database = await createTestDatabase();
  handle = connectDatabase(database.url, { max: 2 });
  await handle.db.insert(tenants).values([{ id: 'tenant-a', name: 'A' }, { id: 'tenant-b', name: 'B' }]).onConflictDoNothing();
  await applySchemeDocuments(handle.db, SYSTEM_TENANT_ID, [COPPERMARK_SCHEME]);
  await applySchemeDocuments(handle.db, 'tenant-b', [RBA_SCHEME]);
});
afterAll(async () => {
  await handle.close();
  await database.drop();
});

type Subject = { referenceProfile?: unknown; conformityAssessment: { assessmentCriteria: { conformityTopic: { id: string }[] }[] }[] };
const subjectOf = (payload: Record<string, unknown>) => payload.credentialSubject as Subject & Record<string, unknown>;

describe('conformity advisory warnings (DCC 0.7.0)', () => {
  it('none when the scheme, profile, criteria and topics are in the catalogue', async () => {
    expect(await conformityWarnings(handle.db, 'tenant-a', readSample(MINE))).toEqual([]);
  });

  it('criteria outside the profile, each with its pointer', async () => {
    expect(await conformityWarnings(handle.db, 'tenant-a', readSample(SMELTER))).toEqual([
      { code: 'conformity-criterion.not-in-profile', message: expect.stringContaining('criterion/29'), pointer: '/credentialSubject/conformityAssessment/1/assessmentCriteria/0/id' },
      { code: 'conformity-criterion.not-in-profile', message: expect.stringContaining('criterion/17'), pointer: '/credentialSubject/conformityAssessment/2/assessmentCriteria/0/id' },
    ]);
  });

  it('a topic the catalogue criterion does not cover', async () => {
    const payload = readSample(MINE);
    subjectOf(payload).conformityAssessment[0]!.assessmentCriteria[0]!.conformityTopic = [{ id: 'https://vocabulary.uncefact.org/conformity-topic/biodiversity' }];
    expect(await conformityWarnings(handle.db, 'tenant-a', payload)).toEqual([
      { code: 'conformity-criterion.topic-mismatch', message: expect.stringContaining('biodiversity'), pointer: '/credentialSubject/conformityAssessment/0/assessmentCriteria/0/conformityTopic' },
    ]);
  });

  it('a scheme seen only in another tenant\'s catalogue is not found; its owner sees no warning', async () => {
    expect(await conformityWarnings(handle.db, 'tenant-a', readSample(BATTERY))).toEqual([
      { code: 'conformity-scheme.not-found', message: 'Conformity scheme https://responsiblebusiness.org is not in the catalogue', pointer: '/credentialSubject/referenceScheme/id' },
    ]);
    expect(await conformityWarnings(handle.db, 'tenant-b', readSample(BATTERY))).toEqual([]);
  });

  it('a missing profile, an unknown one, and one of another scheme', async () => {
    const without = readSample(MINE);
    delete subjectOf(without).referenceProfile;
    expect(await conformityWarnings(handle.db, 'tenant-a', without)).toMatchObject([{ code: 'conformity-profile.not-specified', pointer: '/credentialSubject/referenceProfile' }]);
    for (const id of ['https://coppermark.org/rra/v9.9', 'https://responsiblebusiness.org/vap/v8.0.2']) {
      const payload = readSample(MINE);
      subjectOf(payload).referenceProfile = { type: ['ConformityProfile'], id, name: 'x' };
      expect(await conformityWarnings(handle.db, 'tenant-b', payload)).toMatchObject([{ code: 'conformity-profile.not-found', pointer: '/credentialSubject/referenceProfile/id' }]);
    }
  });

  it('an unreadable catalogue is a warning, never a refusal', async () => {
    const broken = { select: () => { throw new Error('connection lost'); } } as unknown as Queryable;
    expect(await conformityWarnings(broken, 'tenant-a', readSample(MINE))).toEqual([
      { code: 'conformity-claim.validation-error', message: 'The conformity catalogue could not be read; the conformity claims were not checked' },
    ]);
  });

  it('applies to DigitalConformityCredential 0.7.0 only', () => {
    expect(hasConformityChecks({ credentialType: 'DigitalConformityCredential', version: '0.7.0' })).toBe(true);
    expect(hasConformityChecks({ credentialType: 'DigitalConformityCredential', version: '0.6.1' })).toBe(false);
    expect(hasConformityChecks({ credentialType: 'DigitalProductPassport', version: '0.7.0' })).toBe(false);
  });
});
