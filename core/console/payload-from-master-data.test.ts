import { describe, expect, it } from 'vitest';
import { createPayloadChecks } from '../credentials/payload-validation.ts';
import { documentSettings, offlineFetcher } from '../credentials/test-support/offline.ts';
import { identifierUri, payloadFromMasterData, PayloadInputError, type MasterRecord, type ProductRecord } from './payload-from-master-data.ts';

const DPP_SCHEMA = 'https://untp.unece.org/artefacts/schema/v0.7.0/dpp/DigitalProductPassport.json';
const CONTEXT = 'https://vocabulary.uncefact.org/untp/0.7.0/context/';
const GS1 = { name: 'GS1', url: 'https://id.gs1.org' };

const organisation: MasterRecord = { id: 'org1', name: 'Acme Batteries', description: 'Makes cells' };
const facility: MasterRecord = { id: 'fac1', name: 'Plant 7', primaryIdentifier: { value: '9520123456788', scheme: { name: 'GLN', primaryKey: '414', linkTemplate: '/{primaryKey}/{value}', registrar: GS1 } } };
const product: ProductRecord = {
  id: 'prod1',
  name: 'Cell <A1>',
  level: 'MODEL',
  primaryIdentifier: { value: '09520123456788', scheme: { name: 'Global Trade Item Number (GTIN)', primaryKey: '01', linkTemplate: '/{primaryKey}/{value}', registrar: GS1 } },
};
const input = { credentialType: 'DigitalProductPassport', version: '0.7.0', contextUrl: CONTEXT, issuerDid: 'did:web:issuer.example.com', organisation, facility, product, countryOfProduction: 'au' };

describe('the UNTP payload built from master data', () => {
  const checks = createPayloadChecks(offlineFetcher(), documentSettings());

  it('builds a product passport that passes the UNTP 0.7.0 schema and expands with every term defined', async () => {
    const payload = payloadFromMasterData({ ...input, now: new Date('2026-01-02T03:04:05.678Z') });
    await expect(checks.validateSchemas(payload, [DPP_SCHEMA])).resolves.toBeUndefined();
    await expect(checks.expand(payload)).resolves.not.toHaveLength(0);
    expect(payload).toMatchObject({
      issuer: { id: 'did:web:issuer.example.com', name: 'Acme Batteries' },
      validFrom: '2026-01-02T03:04:05Z',
      validUntil: '2027-01-02T03:04:05Z',
      credentialSubject: {
        id: 'https://id.gs1.org/01/09520123456788',
        name: 'Cell <A1>',
        idGranularity: 'model',
        idScheme: { id: 'https://id.gs1.org', name: 'Global Trade Item Number (GTIN)' },
        producedAtFacility: { id: 'https://id.gs1.org/414/9520123456788', name: 'Plant 7', registeredId: '9520123456788' },
        countryOfProduction: { countryCode: 'AU' },
        relatedParty: [{ role: 'manufacturer', party: { id: 'urn:css:organisation:org1', name: 'Acme Batteries' } }],
      },
    });
  });

  it('attaches the render method it is given and still passes the schema', async () => {
    const renderMethod = { type: ['RenderTemplate2024'], name: 'Card', mediaType: 'text/html', url: 'https://app.example.com/verify/template?id=t1', digestMultibase: 'uEiA' };
    const payload = payloadFromMasterData({ ...input, renderMethod });
    expect(payload.renderMethod).toEqual([renderMethod]);
    await expect(checks.validateSchemas(payload, [DPP_SCHEMA])).resolves.toBeUndefined();
  });

  it('percent-encodes identifier values in the link', () => {
    const odd = { ...product, primaryIdentifier: { ...product.primaryIdentifier!, value: 'a/b c' } };
    expect(identifierUri(odd, 'product')).toBe('https://id.gs1.org/01/a%2Fb%20c');
  });

  it('names the field of a missing choice or a bad country', () => {
    expect(() => payloadFromMasterData({ ...input, product: undefined })).toThrow(new PayloadInputError('product', 'choose a product'));
    expect(() => payloadFromMasterData({ ...input, facility: undefined })).toThrow(/^facility: /);
    expect(() => payloadFromMasterData({ ...input, countryOfProduction: 'Australia' })).toThrow(/^countryOfProduction: must be a two-letter/);
    expect(() => payloadFromMasterData({ ...input, credentialType: 'ConformityScheme' })).toThrow(/^dataModel: /);
  });
});
