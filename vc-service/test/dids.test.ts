import { createDecipheriv } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getWithHost, KEY_ENCRYPTION_KEY, startVcService, type VcService } from './vc-harness.ts';

let vc: VcService;
beforeAll(async () => {
  vc = await startVcService();
});
afterAll(() => vc.stop());

const create = (alias: string) => vc.agent('didManagerCreate', { alias, provider: 'did:web', kms: 'local', options: { keyType: 'Ed25519' } });

describe('VC service DIDs (contract C.4)', () => {
  it('creates did:web identifiers with an Ed25519 key; a port is percent-encoded, further colons are path segments', async () => {
    const withPort = await create('localhost:3332');
    expect(withPort.status).toBe(200);
    expect(withPort.body).toEqual({
      did: 'did:web:localhost%3A3332',
      alias: 'localhost:3332',
      provider: 'did:web',
      controllerKeyId: expect.stringMatching(/^[0-9a-f]{64}$/),
      keys: [{ kid: withPort.body.controllerKeyId, type: 'Ed25519', publicKeyHex: withPort.body.controllerKeyId, kms: 'local', meta: { algorithms: ['EdDSA', 'Ed25519'] } }],
      services: [],
    });
    expect((await create('Example.COM:products:batch-1')).body.did).toBe('did:web:example.com:products:batch-1');
    expect((await create('localhost%3A4000:org')).body.did).toBe('did:web:localhost%3A4000:org');
  });

  it('refuses a bad alias, provider or key type with a 400 naming the field, and a taken alias with 409', async () => {
    for (const alias of ['', 'bad host', 'exa_mple.com', 'example.com:99999', 'example.com:a/b', '-x.com']) {
      const res = await create(alias);
      expect(res.status, alias).toBe(400);
      expect(res.body.error).toMatch(/^invalid_argument: alias/);
    }
    expect((await vc.agent('didManagerCreate', {})).body.error).toBe('invalid_argument: alias is required');
    expect((await vc.agent('didManagerCreate', { alias: 'a.example.com', provider: 'did:key' })).body.error).toBe('invalid_argument: provider must be did:web');
    expect((await vc.agent('didManagerCreate', { alias: 'a.example.com', options: { keyType: 'Secp256k1' } })).status).toBe(400);
    expect((await create('taken.example.com')).status).toBe(200);
    const again = await create('TAKEN.example.com');
    expect(again.status).toBe(409);
    expect(again.body.error).toContain('already exists');
  });

  it('gets, finds and deletes; unknown DIDs are 404 not_found', async () => {
    const { did } = (await create('life.example.com')).body;
    expect((await vc.agent('didManagerGet', { did })).body.did).toBe(did);
    const found = await vc.agent('didManagerFind', { alias: 'life.example.com' });
    expect(found.body.map((d: { did: string }) => d.did)).toEqual([did]);
    expect((await vc.agent('didManagerFind', {})).body.length).toBeGreaterThan(1);
    expect((await vc.agent('didManagerFind', { alias: 7 })).status).toBe(400);
    expect(await vc.agent('didManagerDelete', { did })).toEqual({ status: 200, body: true });
    expect(await vc.agent('didManagerGet', { did })).toEqual({ status: 404, body: { error: 'not_found: Identifier not found' } });
    expect((await vc.agent('didManagerDelete', { did })).status).toBe(404);
    expect((await vc.agent('didManagerGet', {})).status).toBe(400);
  });

  it('serves did:web documents without auth for the Host asked, three verification methods per key', async () => {
    const root = (await create(`127.0.0.1:${new URL(vc.url).port}`)).body;
    const doc = await vc.call('GET', '/.well-known/did.json', { key: null });
    expect(doc.status).toBe(200);
    expect(doc.headers.get('content-type')).toContain('application/did+json');
    const kid = root.controllerKeyId;
    const jwk = { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(kid, 'hex').toString('base64url') };
    expect(doc.body).toMatchObject({
      '@context': expect.arrayContaining(['https://www.w3.org/ns/did/v1']),
      id: root.did,
      verificationMethod: [
        { id: `${root.did}#${kid}`, type: 'Ed25519VerificationKey2020', controller: root.did, publicKeyMultibase: expect.stringMatching(/^z6Mk/) },
        { id: `${root.did}#${kid}-JsonWebKey2020-key-0`, type: 'JsonWebKey2020', controller: root.did, publicKeyJwk: jwk },
        { id: `${root.did}#${kid}-JsonWebKey-key-0`, type: 'JsonWebKey', controller: root.did, publicKeyJwk: jwk },
      ],
    });
    expect(doc.body.assertionMethod).toHaveLength(3);

    const pathDid = (await create(`127.0.0.1:${new URL(vc.url).port}:orgs:acme`)).body;
    const pathDoc = await vc.call('GET', '/orgs/acme/did.json', { key: null });
    expect(pathDoc.body.id).toBe(pathDid.did);
    expect((await vc.call('GET', '/orgs/nobody/did.json', { key: null })).status).toBe(404);
    expect((await getWithHost(`${vc.url}/.well-known/did.json`, 'unknown.example.com')).status).toBe(404);
    const byHost = await getWithHost(`${vc.url}/orgs/acme/did.json`, 'Issuer.Example.com:8443');
    expect(byHost.status).toBe(404);
    const hosted = (await create('issuer.example.com:8443:orgs:acme')).body;
    expect(JSON.parse((await getWithHost(`${vc.url}/orgs/acme/did.json`, 'Issuer.Example.com:8443')).body).id).toBe(hosted.did);
    const resolved = await vc.agent('resolveDid', { didUrl: `${pathDid.did}#x` });
    expect(resolved.body).toMatchObject({ didDocument: pathDoc.body, didResolutionMetadata: {} });
  });

  it('keeps private keys sealed with AES-256-GCM under the key setting; no route or log line shows them', async () => {
    const { did } = (await create('sealed.example.com')).body;
    const sql = postgres(vc.databaseUrl, { max: 1, onnotice: () => {} });
    try {
      const [row] = await sql<{ private_key: Buffer }[]>`select private_key from vc_service.keys where did = ${did}`;
      const sealed = row!.private_key;
      const decipher = createDecipheriv('aes-256-gcm', Buffer.from(KEY_ENCRYPTION_KEY, 'hex'), sealed.subarray(0, 12));
      decipher.setAuthTag(sealed.subarray(12, 28));
      const pkcs8 = Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]);
      const seed = pkcs8.subarray(-32);
      expect(sealed.includes(seed)).toBe(false);
      const shown = [
        JSON.stringify((await vc.agent('didManagerGet', { did })).body),
        JSON.stringify((await vc.agent('didManagerFind', {})).body),
        JSON.stringify((await vc.agent('resolveDid', { didUrl: did })).body),
        vc.program.output().stdout,
        vc.program.output().stderr,
      ].join('\n');
      for (const form of [seed.toString('hex'), seed.toString('base64url'), seed.toString('base64')]) expect(shown).not.toContain(form);
      expect(shown).not.toMatch(/private/i);
      // Its tables live in its own schema: nothing else is created in the database it is given.
      const schemas = await sql<{ table_schema: string }[]>`select distinct table_schema from information_schema.tables
        where table_schema not in ('pg_catalog', 'information_schema')`;
      expect(schemas.map((r) => r.table_schema)).toEqual(['vc_service']);
    } finally {
      await sql.end();
    }
  });
});
