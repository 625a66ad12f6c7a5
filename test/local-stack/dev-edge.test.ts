import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeEntries } from '../../scripts/edge-bundle.ts';
import { SERVED_BY_HEADER, wranglerRoutes } from '../../scripts/edge-routes.ts';
import { createTestDatabase, type TestDatabase } from '../rig/databases.ts';
import { freePort } from '../rig/postgres-server.ts';
import { runProgram, stopProgram, untilPrinted, type Program } from '../rig/program.ts';

/**
 * `npm run dev:edge` as a user starts it (its own ports, its own data folder, a database of its own), then the
 * README's "Issue a Digital Product Passport and verify it" through its one origin: token, issue, read the record,
 * verify on the public route. Each answer says which runtime gave it, checked against the startup table.
 */
describe('npm run dev:edge: the API behind one origin, edge groups under workerd', () => {
  let dir: string;
  let database: TestDatabase;
  let program: Program;
  const ports = { web: 0, idp: 0, storage: 0, vc: 0 };
  let origin: string;
  /** The walk-through's token, request and record, for the walk-throughs after it. */
  const walked: { auth: Record<string, string>; request: unknown; id: string; check: Record<string, string> } = { auth: {}, request: undefined, id: '', check: {} };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'css-dev-edge-'));
    database = await createTestDatabase('empty');
    for (const name of Object.keys(ports) as (keyof typeof ports)[]) ports[name] = await freePort();
    origin = `http://localhost:${ports.web}`;
    program = runProgram('scripts/dev-edge.ts', {
      PORT: String(ports.web),
      LOCAL_IDP_PORT: String(ports.idp),
      STORAGE_PORT: String(ports.storage),
      VC_PORT: String(ports.vc),
      RI_DATABASE_URL: database.url,
      LOCAL_DATA_DIR: dir,
      LOG_LEVEL: 'warn',
    });
    // The startup table (bounded): the whole stack answers once it is printed.
    await untilPrinted(program, 'Press Ctrl+C to stop.', 240);
  }, 300_000);

  afterAll(async () => {
    await stopProgram(program);
    await database?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 60_000);

  const startupLine = (label: string) => program.output().stdout.split('\n').find((line) => line.trimStart().startsWith(label))!;

  it('prints which groups workerd serves and which the Node web process serves, as npm start prints the rest', () => {
    // An entry without a route of its own (credential-status: credential-records' route serves its paths) stays off the gateway.
    const routed = new Set(wranglerRoutes(readFileSync('wrangler.toml', 'utf8')).map((r) => r.group));
    const onEdge = edgeEntries().filter((e) => e.entry.startsWith('functions/') && routed.has(e.group)).map((e) => e.group);
    expect(onEdge).toContain('credential-records');
    expect(onEdge).toContain('registrars');
    const workerdGroups = startupLine('workerd').replace(/^\s*workerd\s+/, '').split(', ');
    expect(workerdGroups.sort()).toEqual(onEdge.sort());
    const nodeGroups = startupLine('Node web').replace(/^\s*Node web\s+/, '').split(' (')[0]!.split(', ');
    for (const group of nodeGroups.filter((g) => g !== '(none)')) expect(onEdge).not.toContain(group);
    expect(startupLine('API ')).toContain(`${origin}/api/v1`);
    expect(program.output().stdout).toContain('client_id=local-service-account');
  });

  it("walks the README's issuance and verification: issue a DPP, read the record, verify it on the public route", async () => {
    const tokenResponse = await fetch(`http://127.0.0.1:${ports.idp}/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${btoa('local-service-account:local-service-account-secret')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials', resource: 'credential-support-service' }),
    });
    expect(tokenResponse.status).toBe(200);
    const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
    const auth = { authorization: `Bearer ${token}` };

    // Served by workerd: health and a master-data group of the edge.
    const health = await fetch(`${origin}/api/health`);
    expect(health.status).toBe(200);
    expect(health.headers.get(SERVED_BY_HEADER)).toBe('workerd health');
    const registrar = await fetch(`${origin}/api/v1/registrars`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'GS1', namespace: 'gs1', url: 'https://www.gs1.org' }),
    });
    expect(registrar.status).toBe(201);
    expect(registrar.headers.get(SERVED_BY_HEADER)).toBe('workerd registrars');
    expect((await fetch(`${origin}/api/v1/registrars`)).status).toBe(401);

    // The README's request: the published DPP sample, signed by the system default DID of this stack's VC service.
    const payload = JSON.parse(readFileSync('core/credentials/test-support/samples/0.7.0-prerelease/dpp/DigitalProductPassport_instance.json', 'utf8'));
    payload.issuer = { type: ['CredentialIssuer'], id: `did:web:localhost%3A${ports.vc}:default`, name: 'Acme Widgets' };
    payload.validFrom = new Date().toISOString();
    payload.validUntil = '2030-01-01T00:00:00Z';
    const request = { credentialType: 'DigitalProductPassport', version: '0.7.0', credentialPayload: payload };
    const issued = await fetch(`${origin}/api/v1/credentials`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(request),
    });
    const issuedBody = (await issued.json()) as { credentialId: string };
    expect(issued.status, JSON.stringify(issuedBody)).toBe(201);
    // Issuance runs under workerd (functions/credentials/edge.ts), as the startup table says.
    expect(startupLine('workerd').split(/[\s,]+/)).toContain('credentials');
    expect(issued.headers.get(SERVED_BY_HEADER)).toBe('workerd credentials');

    const record = await fetch(`${origin}/api/v1/credentials/${issuedBody.credentialId}`, { headers: auth });
    expect(record.status).toBe(200);
    // Records under /api/v1/credentials/{id} have an edge entry of their own.
    expect(record.headers.get(SERVED_BY_HEADER)).toBe('workerd credential-records');
    const { storageUri, digestMultibase, decryptionKey, verifyUrl } = (await record.json()) as Record<'storageUri' | 'digestMultibase' | 'decryptionKey' | 'verifyUrl', string>;
    expect(storageUri).toMatch(new RegExp(`^http://localhost:${ports.storage}/`));
    expect(verifyUrl).toMatch(new RegExp(`^${origin}/verify`));

    const verified = await fetch(`${origin}/api/v1/credentials/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ uri: storageUri, digestMultibase, decryptionKey }),
    });
    const verdict = (await verified.json()) as { verified: boolean };
    expect(verified.status).toBe(200);
    expect(verdict.verified, JSON.stringify(verdict)).toBe(true);
    Object.assign(walked, { auth, request, id: issuedBody.credentialId, check: { uri: storageUri, digestMultibase, decryptionKey } });

    // Another digest (one character changed) is refused: the verification really checks.
    const otherDigest = `${digestMultibase.slice(0, 10)}${digestMultibase[10] === 'a' ? 'b' : 'a'}${digestMultibase.slice(11)}`;
    const tampered = await fetch(`${origin}/api/v1/credentials/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ uri: storageUri, digestMultibase: otherDigest, decryptionKey }),
    });
    expect(tampered.status).toBe(422);
    expect(await tampered.json()).toMatchObject({ code: 'DIGEST_MISMATCH' });
  }, 120_000);

  it("walks the README's batch and revocation: a batch completes, a revoked credential no longer verifies", async () => {
    const { auth, request, id, check } = walked;
    expect(id).not.toBe('');
    const json = { ...auth, 'content-type': 'application/json' };
    const submitted = await fetch(`${origin}/api/v1/credentials/batches`, {
      method: 'POST',
      headers: { ...json, 'idempotency-key': 'dev-edge-batch' },
      body: JSON.stringify({ items: [0, 1].map((i) => ({ ...(request as object), reference: `lot-${i}` })) }),
    });
    const { batchId } = (await submitted.json()) as { batchId: string };
    expect(submitted.status).toBe(202);
    let state = '';
    for (let attempt = 0; !['COMPLETED', 'NEEDS_ATTENTION', 'CANCELLED'].includes(state) && attempt < 240; attempt += 1) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 500));
      state = ((await (await fetch(`${origin}/api/v1/credentials/batches/${batchId}`, { headers: auth })).json()) as { state: string }).state;
    }
    expect(state).toBe('COMPLETED');

    const status = await fetch(`${origin}/api/v1/credentials/${id}/status`, { headers: auth });
    expect(status.status).toBe(200);
    const revoked = await fetch(`${origin}/api/v1/credentials/${id}/status/revocation`, {
      method: 'PUT',
      headers: { ...json, 'if-version': '1' },
      body: JSON.stringify({ value: true }),
    });
    expect(revoked.status, await revoked.clone().text()).toBe(200);
    const verdict = (await (
      await fetch(`${origin}/api/v1/credentials/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(check) })
    ).json()) as { verified: boolean; error?: { type?: string } };
    expect(verdict.verified).toBe(false);
    expect(JSON.stringify(verdict)).toContain('status');
  }, 180_000);

  it('stops every service on SIGTERM', async () => {
    program.child.kill('SIGTERM');
    expect(await program.exited).toBe(0);
    await expect(fetch(`${origin}/api/health`, { signal: AbortSignal.timeout(5_000) })).rejects.toThrow();
  }, 60_000);
});
