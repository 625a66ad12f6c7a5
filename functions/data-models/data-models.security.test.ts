import { beforeAll, describe, expect, it } from 'vitest';
import { dataModels } from '../../db/schema/index.ts';
import { securitySuite } from '../../test/rig/security-suite.ts';
import type { TestApp } from '../../test/rig/test-app.ts';

const DPP_070 = 'ca3frzta22f7lblxntvw6ukuh';
const models = '/api/v1/data-models';
const extension = (overrides: Record<string, unknown> = {}) => ({
  name: 'Private to A',
  credentialType: 'BatteryPassport',
  version: '0.7.0',
  parentConfigId: DPP_070,
  schemaUrl: 'https://schemas.example.com/battery.json',
  contextUrl: 'https://schemas.example.com/battery/context.jsonld',
  ...overrides,
});
let t: TestApp;
let tokenA: string;
let tokenB: string;

const context = securitySuite({
  name: '/data-models',
  setup: async (app, a) => ({ modelOfA: (await app.call('POST', models, { token: a, body: extension() })).body as { id: string } }),
  routes: (f) => [
    ['GET', models],
    ['POST', models, extension({ name: 'x' })],
    ['GET', `${models}/${f.modelOfA.id}`],
    ['GET', `${models}/${f.modelOfA.id}/form-config`],
    ['PATCH', `${models}/${f.modelOfA.id}`, { name: 'stolen' }],
    ['DELETE', `${models}/${f.modelOfA.id}`],
  ],
  foreign: (f) => [
    { method: 'GET', path: (id) => `${models}/${id}`, id: f.modelOfA.id },
    { method: 'GET', path: (id) => `${models}/${id}/form-config`, id: f.modelOfA.id },
    { method: 'PATCH', path: (id) => `${models}/${id}`, body: () => ({ name: 'stolen' }), id: f.modelOfA.id },
    { method: 'DELETE', path: (id) => `${models}/${id}`, id: f.modelOfA.id },
    { method: 'POST', path: () => models, body: (id) => extension({ name: 'x', parentConfigId: id }), id: f.modelOfA.id },
  ],
  lists: (f) => [{ path: `${models}?isExtension=true&limit=100`, hidden: [f.modelOfA.id] }],
  snapshot: async (app, f, a) => (await app.call('GET', `${models}/${f.modelOfA.id}`, { token: a })).body,
  count: async (db) => (await db.select().from(dataModels)).length,
});
beforeAll(() => ({ t, tokenA, tokenB } = context()));

describe('core data models are shared and read-only', () => {
  it('every tenant reads them; PATCH and DELETE are 403', async () => {
    for (const token of [tokenA, tokenB]) {
      expect((await t.call('GET', `${models}/${DPP_070}`, { token })).body.isSystemDefault).toBe(true);
      expect((await t.call('PATCH', `${models}/${DPP_070}`, { token, body: { name: 'Mine' } })).status).toBe(403);
      expect((await t.call('DELETE', `${models}/${DPP_070}`, { token })).status).toBe(403);
    }
  });
});
