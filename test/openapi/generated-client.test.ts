import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueBody, SAMPLES, samplePayload, startIssuanceRig, type IssuanceRig } from '../rig/credential-fixtures.ts';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const GENERATOR = join(require.resolve('swagger-typescript-api/package.json'), '..', 'dist', 'cli.mjs');
const TSC = join(require.resolve('typescript/package.json'), '..', 'bin', 'tsc');

/** Git-ignored (test/artifacts/), one folder per run, removed afterwards. */
const OUT = join(import.meta.dirname, '..', 'artifacts', 'openapi-client', crypto.randomUUID());

/**
 * Uses the generated types as a caller would: fails to compile when an operation, its name or its body's shape
 * disappears from the document.
 */
const TYPED_USE = `import { Api, type HttpResponse } from './api.ts';
const api = new Api<string>({ securityWorker: (token) => (token ? { headers: { Authorization: \`Bearer \${token}\` } } : {}) });
export const walk = async (did: string): Promise<boolean> => {
  const issued: HttpResponse<{ credentialId: string }, unknown> = await api.api.issueCredential(
    { credentialType: 'DigitalProductPassport', version: '0.7.0', credentialPayload: { issuer: did } },
    { secure: true },
  );
  const record = await api.api.getCredential(issued.data.credentialId, { secure: true });
  const storageUri: string = record.data.storageUri;
  const result = await api.api.verifyCredentialPost({ uri: storageUri, digestMultibase: record.data.digestMultibase });
  return result.data.verified;
};
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2023', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2023', 'DOM', 'DOM.Iterable'], types: [],
    strict: true, noUncheckedIndexedAccess: true, isolatedModules: true, verbatimModuleSyntax: true,
    allowImportingTsExtensions: true, noEmit: true,
  },
  include: ['*.ts'],
};

let rig: IssuanceRig;
// biome-ignore lint: the served document, read as JSON.
let served: any;
// The generated module, typed by hand only as far as this test calls it (its own types are checked by tsc below).
type Call = (...args: unknown[]) => Promise<{ status: number; data: Record<string, unknown> }>;
let client: { api: Record<string, Call> };

beforeAll(async () => {
  rig = await startIssuanceRig();
  await mkdir(OUT, { recursive: true });
  const text = await (await fetch(`${rig.t.url}/api-docs/openapi.json`)).text();
  served = JSON.parse(text);
  await writeFile(join(OUT, 'openapi.json'), text);
  await run(process.execPath, [GENERATOR, 'generate', '--path', join(OUT, 'openapi.json'), '--output', OUT, '--name', 'api.ts', '--enum-style=union', '--type-only-imports', '--silent'], { timeout: 120_000 });
  const { Api } = (await import(pathToFileURL(join(OUT, 'api.ts')).href)) as { Api: new (config: object) => typeof client };
  client = new Api({ baseUrl: rig.t.url, securityWorker: (token: string | null) => (token ? { headers: { Authorization: `Bearer ${token}` } } : {}) });
});
afterAll(async () => {
  await rig?.close();
  await rm(OUT, { recursive: true, force: true });
});

describe('a client generated from the served document', () => {
  it('compiles under tsc (strict), and so does code that calls it by operationId', async () => {
    await writeFile(join(OUT, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    await writeFile(join(OUT, 'typed-use.ts'), TYPED_USE);
    const compiled = await run(process.execPath, [TSC, '-p', join(OUT, 'tsconfig.json')], { timeout: 120_000 }).then(
      () => '',
      (error: { stdout?: string; message: string }) => error.stdout || error.message,
    );
    expect(compiled).toBe('');
  });

  it('runs the issuance walk-through: creates a DID, issues a DPP with it, reads it back and verifies it', async () => {
    const secure = { secure: true };
    (client as unknown as { setSecurityData(token: string): void }).setSecurityData(rig.token);
    const did = await client.api.createDid!({ type: 'MANAGED', method: 'DID_WEB', alias: `client-${crypto.randomUUID().slice(0, 8)}` }, secure);
    expect(did.status).toBe(201);
    const issuerDid = did.data.did as string;

    const payload = samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, issuerDid);
    const issued = await client.api.issueCredential!(issueBody('DigitalProductPassport', '0.7.0', payload), secure);
    expect(issued.status).toBe(201);
    const id = issued.data.credentialId as string;

    const record = await client.api.getCredential!(id, secure);
    expect(record.status).toBe(200);
    expect(record.data).toMatchObject({ id, credentialType: 'DigitalProductPassport', issuerDid, encrypted: true });

    const { storageUri, digestMultibase, decryptionKey } = record.data;
    const verified = await client.api.verifyCredentialPost!({ uri: storageUri, digestMultibase, decryptionKey });
    expect(verified.status).toBe(200);
    expect(verified.data).toMatchObject({ verified: true, decodedCredential: { issuer: { id: issuerDid } } });
  });

  it('the document’s own request examples are accepted: a DID, an issuance (signed by the rig’s DID) and a batch', async () => {
    const secure = { secure: true };
    (client as unknown as { setSecurityData(token: string): void }).setSecurityData(rig.token);
    const exampleOf = (path: string) => structuredClone(served.paths[path].post.requestBody.content['application/json'].example);

    const did = await client.api.createDid!({ ...exampleOf('/api/v1/dids'), alias: `example-${crypto.randomUUID().slice(0, 8)}` }, secure);
    expect(did.status).toBe(201);

    const issuance = exampleOf('/api/v1/credentials');
    issuance.credentialPayload.issuer.id = rig.did;
    const issued = await client.api.issueCredential!(issuance, secure);
    expect(issued).toMatchObject({ status: 201, data: { credentialId: expect.any(String) } });

    const batch = exampleOf('/api/v1/credentials/batches');
    for (const item of batch.items) item.credentialPayload.issuer.id = rig.did;
    const submitted = await client.api.submitBatch!(batch, { ...secure, headers: { 'Idempotency-Key': crypto.randomUUID() } });
    expect(submitted.status).toBe(202);
  });

  it('reports a refused call as the documented error body', async () => {
    const missing = await client.api.getCredential!('ckv9x2l0k0000qzrm8d1b2c3d', { secure: true }).then(
      () => undefined,
      (response: { status: number; error: unknown }) => response,
    );
    expect(missing).toMatchObject({ status: 404, error: { error: expect.any(String) } });
  });
});
