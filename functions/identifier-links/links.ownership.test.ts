import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_SERVICE_IDS } from '../../core/settings/system-services.ts';
import { identifierLinks, serviceInstances } from '../../db/schema/index.ts';
import { startIdrDouble, type IdrDouble } from '../../test/doubles/idr-double.ts';
import { createIdentifier, createScheme, GTIN } from '../../test/rig/scheme-fixtures.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';
import { dppLink, registerGs1 } from './links.test-setup.ts';

/**
 * Issue 12 item 10: two tenants hold the same GTIN and publish through the shared system resolver.
 * The tenant whose links are live in the resolver document owns it; the other's publish is a 409.
 */
let t: TestApp;
let idr: IdrDouble;
const tenants: Record<'a' | 'b', { token: string; identifierId: string }> = {} as never;

beforeAll(async () => {
  idr = await startIdrDouble();
  await registerGs1(idr);
  t = await startTestApp({ env: { FETCH_ALLOW_PRIVATE_URLS: 'true' } });
  const config = { baseUrl: idr.url, apiKey: idr.apiKey, apiVersion: '4.0', defaultLinkType: 'untp:dpp', defaultMimeType: 'text/html', defaultLanguage: 'en', defaultContext: 'au', defaultFwqs: false };
  await t.db.update(serviceInstances).set({ configEncrypted: await t.services.secretBox.encryptJson(config) }).where(eq(serviceInstances.id, SYSTEM_SERVICE_IDS.IDR));
  for (const [key, account] of [['a', 'tenantA'], ['b', 'tenantB']] as const) {
    const token = await t.token(account);
    const scheme = await createScheme(t, token);
    tenants[key] = { token, identifierId: (await createIdentifier(t, token, scheme.id, GTIN)).id };
  }
});
afterAll(async () => {
  await t.close();
  await idr.close();
});

const publish = (who: 'a' | 'b', body: Record<string, unknown>) =>
  t.call('POST', `/api/v1/identifiers/${tenants[who].identifierId}/links`, { token: tenants[who].token, body });
const recordsOf = async (who: 'a' | 'b') => t.db.select().from(identifierLinks).where(eq(identifierLinks.identifierId, tenants[who].identifierId));
const documentLinks = (key: string) => [...idr.links.values()].filter((l) => l.documentKey === key);

describe('one identifier, two tenants, one shared resolver', () => {
  it('the tenant whose links are live in the document owns it; the other is refused with 409 and changes nothing', async () => {
    const document = `gs1/01/${GTIN}`;
    const first = await publish('a', { description: 'Tenant A widget', links: [dppLink({ href: 'https://a.example.com/dpp' })] });
    expect(first.status).toBe(201);

    const refused = await publish('b', { description: 'Tenant B widget', links: [dppLink({ href: 'https://b.example.com/dpp' })] });
    expect(refused).toMatchObject({ status: 409, body: { code: 'IDR_DOCUMENT_OWNED', error: expect.stringContaining(document) } });
    expect(documentLinks(document).map((l) => l.targetUrl)).toEqual(['https://a.example.com/dpp']);
    expect(idr.descriptions.get(document)).toBe('Tenant A widget');
    expect(await recordsOf('b')).toEqual([]);

    // Another qualifier path is another document, free to take.
    expect((await publish('b', { qualifierPath: '/10/B1', links: [dppLink({ href: 'https://b.example.com/lot' })] })).status).toBe(201);

    // Once A's links are gone from the document, B may publish there, and then owns it.
    const deleted = await t.call('DELETE', `/api/v1/identifiers/${tenants.a.identifierId}/links/${first.body[0].idrLinkId}`, { token: tenants.a.token });
    expect(deleted.status).toBe(204);
    expect((await publish('b', { links: [dppLink({ href: 'https://b.example.com/dpp' })] })).status).toBe(201);
    expect((await publish('a', { links: [dppLink({ href: 'https://a.example.com/again' })] })).body.code).toBe('IDR_DOCUMENT_OWNED');
  });
});
