import { expect, it } from 'vitest';
import { bulkCreate, countMasterData, createIdentifiers } from './master-data-fixtures.ts';
import { securitySuite, type ForeignCall } from './security-suite.ts';

export interface MasterDataSecurityCase {
  /** Path segment under /api/v1, e.g. `organisations`. */
  path: string;
  /** Body of the missing-record 404, e.g. `Organisation not found`. */
  notFound: string;
  /** A valid create item (besides identifier references). */
  item: Record<string, unknown>;
  /** A valid PATCH body. */
  patch: Record<string, unknown>;
  /** Fields of a create item that reference another tenant-owned record, with the kind they name. */
  references: { field: string; path: string; item: Record<string, unknown>; what: string }[];
}

/**
 * The shared security suite for a master-data group, plus what master data adds: identifier and
 * record references inside create and PATCH bodies, search, and the 404 messages naming the field.
 */
export const masterDataSecuritySuite = (c: MasterDataSecurityCase) => {
  const base = `/api/v1/${c.path}`;
  const context = securitySuite({
    name: `/${c.path}`,
    setup: async (t, tokenA, tokenB) => {
      const identifierOfA = (await createIdentifiers(t, tokenA, 1, 3131))[0]!;
      const [recordOfA] = await bulkCreate(t, tokenA, c.path, [{ ...c.item, primaryIdentifierId: identifierOfA.id }]);
      const [ownOfB] = await bulkCreate(t, tokenB, c.path, [c.item]);
      const referencedOfA: Record<string, string> = {};
      for (const ref of c.references) referencedOfA[ref.field] = (await bulkCreate(t, tokenA, ref.path, [ref.item]))[0]!.id;
      return { tokenB, identifierOfA, recordOfA: recordOfA!, ownOfB: ownOfB!, referencedOfA };
    },
    routes: (f) => [
      ['POST', base, [c.item]],
      ['GET', base],
      ['GET', `${base}/${f.recordOfA.id}`],
      ['PATCH', `${base}/${f.recordOfA.id}`, c.patch],
      ['DELETE', `${base}/${f.recordOfA.id}`],
    ],
    foreign: (f) => [
      ...(['GET', 'PATCH', 'DELETE'] as const).map(
        (method): ForeignCall => ({ method, path: (id) => `${base}/${id}`, body: () => (method === 'PATCH' ? c.patch : undefined), id: f.recordOfA.id }),
      ),
      { method: 'POST', path: () => base, body: (id) => [{ ...c.item, primaryIdentifierId: id }], id: f.identifierOfA.id },
      { method: 'POST', path: () => base, body: (id) => [{ ...c.item, secondaryIdentifierIds: [id] }], id: f.identifierOfA.id },
      ...c.references.flatMap((ref): ForeignCall[] => [
        { method: 'POST', path: () => base, body: (id) => [{ ...c.item, [ref.field]: id }], id: f.referencedOfA[ref.field]! },
        { method: 'PATCH', path: () => `${base}/${f.ownOfB.id}`, body: (id) => ({ [ref.field]: id }), id: f.referencedOfA[ref.field]! },
      ]),
    ],
    lists: (f) => [
      { path: `${base}?limit=100`, hidden: [f.recordOfA.id] },
      { path: `${base}?search=${f.identifierOfA.value}`, hidden: [f.recordOfA.id] },
    ],
    snapshot: async (t, f, tokenA) => [
      (await t.call('GET', `${base}/${f.recordOfA.id}`, { token: tokenA })).body,
      (await t.call('GET', `${base}/${f.ownOfB.id}`, { token: f.tokenB })).body,
    ],
    count: countMasterData,
  });

  it(`/${c.path}: the 404s name what is missing (the record, or the referencing field)`, async () => {
    const { t, tokenB, fixture: f } = context();
    expect((await t.call('GET', `${base}/${f.recordOfA.id}`, { token: tokenB })).body).toEqual({ error: c.notFound, code: 'NOT_FOUND' });
    for (const field of ['primaryIdentifierId', 'secondaryIdentifierIds'] as const) {
      const value = field === 'primaryIdentifierId' ? f.identifierOfA.id : [f.identifierOfA.id];
      const res = await t.call('POST', base, { token: tokenB, body: [{ ...c.item, [field]: value }] });
      expect(res.body.error).toBe(`[0].${field}${field === 'primaryIdentifierId' ? '' : '[0]'}: identifier not found`);
    }
    for (const ref of c.references) {
      const created = await t.call('POST', base, { token: tokenB, body: [{ ...c.item, [ref.field]: f.referencedOfA[ref.field] }] });
      expect(created.body.error).toBe(`[0].${ref.field}: ${ref.what} not found`);
      const patched = await t.call('PATCH', `${base}/${f.ownOfB.id}`, { token: tokenB, body: { [ref.field]: f.referencedOfA[ref.field] } });
      expect(patched.body.error).toBe(`${ref.field}: ${ref.what} not found`);
    }
  });

  it(`/${c.path}: a search by another tenant's identifier value finds nothing`, async () => {
    const { t, tokenB, fixture: f } = context();
    expect((await t.call('GET', `${base}?search=${f.identifierOfA.value}`, { token: tokenB })).body.data).toEqual([]);
  });
};
