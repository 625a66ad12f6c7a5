import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { issueBody, samplePayload, SAMPLES, startIssuanceRig, type IssuanceRig } from '../rig/credential-fixtures.ts';

/**
 * The lines that tell a request's story at info, through the HTTP routes: a credential issued, a status
 * changed, a verification that fails with its reason code. Each carries the ids an operator needs (tenant,
 * credential, correlation id) and never a token, key or payload; a refused request writes none of them.
 */
type Line = Record<string, unknown>;

describe('logs that tell the story of issuance, status changes and verification', () => {
  let rig: IssuanceRig;
  let tenantId: string;
  beforeAll(async () => {
    rig = await startIssuanceRig({ LOG_LEVEL: 'info', CREDENTIAL_STATUS_MUTATION_ENABLED: 'true' });
    tenantId = await rig.t.tenantOf('tenantA');
  });
  afterAll(() => rig?.close());

  /** The JSON lines the app writes while `work` runs. */
  const logged = async <T>(work: () => Promise<T>): Promise<{ result: T; lines: Line[]; text: string }> => {
    const raw: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void raw.push(String(line)));
    try {
      const result = await work();
      return { result, lines: raw.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Line), text: raw.join('\n') };
    } finally {
      spy.mockRestore();
    }
  };
  const dpp = (extra: Record<string, unknown> = {}) => issueBody('DigitalProductPassport', '0.7.0', samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, rig.did), extra);
  const issue = (correlationId: string, body: unknown = dpp()) =>
    rig.t.call('POST', '/api/v1/credentials', { token: rig.token, body, headers: { 'x-correlation-id': correlationId } });
  const recordOf = async (credentialId: string) => (await rig.t.call('GET', `/api/v1/credentials/${credentialId}`, { token: rig.token })).body;

  it('"Credential issued": one line with tenant, credential id, type and correlation id; none for a refused issuance', async () => {
    const { result: issued, lines, text } = await logged(() => issue('story-issue-1'));
    expect(issued.status, issued.text).toBe(201);
    expect(lines.filter((line) => line.message === 'Credential issued')).toEqual([
      expect.objectContaining({ level: 'info', tenantId, credentialId: issued.body.credentialId, credentialType: 'DigitalProductPassport', correlationId: 'story-issue-1' }),
    ]);
    const { decryptionKey } = await recordOf(issued.body.credentialId);
    expect(decryptionKey).toMatch(/^[0-9a-f]{64}$/);
    for (const secret of [decryptionKey, rig.token, rig.vc.apiKey, 'credentialSubject']) expect(text).not.toContain(secret);

    const refused = await logged(() => issue('story-issue-2', issueBody('DigitalProductPassport', '0.7.0', samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, 'did:web:nobody.example'))));
    expect(refused.result.status).toBeGreaterThanOrEqual(400);
    expect(refused.result.status).toBeLessThan(500);
    expect(refused.lines.filter((line) => line.message === 'Credential issued')).toEqual([]);
  });

  it('"Credential status changed": one line with tenant, credential id, purpose, value, version and correlation id; none for a refused change', async () => {
    const issued = await issue('story-status-issue', dpp({ statusPurposes: ['suspension'] }));
    expect(issued.status, issued.text).toBe(201);
    const credentialId = issued.body.credentialId as string;
    const put = (value: boolean, version: number, correlationId: string) =>
      rig.t.call('PUT', `/api/v1/credentials/${credentialId}/status/suspension`, {
        token: rig.token,
        body: { value },
        headers: { 'if-version': String(version), 'x-correlation-id': correlationId },
      });

    const { result: suspended, lines, text } = await logged(() => put(true, 1, 'story-suspend-1'));
    expect(suspended.status, suspended.text).toBe(200);
    expect(lines.filter((line) => line.message === 'Credential status changed')).toEqual([
      expect.objectContaining({
        level: 'info',
        tenantId,
        credentialId,
        entryId: suspended.body.entryId,
        purpose: 'suspension',
        value: true,
        version: 2,
        correlationId: 'story-suspend-1',
      }),
    ]);
    for (const secret of [rig.token, rig.vc.apiKey]) expect(text).not.toContain(secret);

    // A stale If-Version is refused before anything changes: no status line.
    const stale = await logged(() => put(false, 1, 'story-suspend-2'));
    expect(stale.result.status).toBe(409);
    expect(stale.lines.filter((line) => line.message === 'Credential status changed')).toEqual([]);

    // Verifying the suspended credential fails on its status: logged with the reason, at info.
    const { storageUri, digestMultibase, decryptionKey } = await recordOf(credentialId);
    const check = await logged(() =>
      rig.t.call('POST', '/api/v1/credentials/verify', { body: { uri: storageUri, digestMultibase, decryptionKey }, headers: { 'x-correlation-id': 'story-verify-1' } }),
    );
    expect(check.result.status).toBe(200);
    expect(check.result.body.verified).toBe(false);
    expect(check.lines.filter((line) => line.message === 'Credential not verified')).toEqual([
      expect.objectContaining({ level: 'info', credentialType: 'DigitalProductPassport', outcome: 'not_verified', reason: 'status', correlationId: 'story-verify-1' }),
    ]);
    expect(check.text).not.toContain(decryptionKey);
  });

  it('"Credential not verified": one line with the failure code when it cannot be checked; none when it verifies', async () => {
    const issued = await issue('story-verify-issue');
    expect(issued.status, issued.text).toBe(201);
    const { storageUri, digestMultibase, decryptionKey } = await recordOf(issued.body.credentialId);
    const wrongKey = 'ab'.repeat(32);
    const failed = await logged(() =>
      rig.t.call('POST', '/api/v1/credentials/verify', { body: { uri: storageUri, decryptionKey: wrongKey }, headers: { 'x-correlation-id': 'story-verify-2' } }),
    );
    expect(failed.result.body.code).toBe('DECRYPTION_FAILED');
    expect(failed.lines.filter((line) => line.message === 'Credential not verified')).toEqual([
      expect.objectContaining({ level: 'info', outcome: 'DECRYPTION_FAILED', reason: 'DECRYPTION_FAILED', correlationId: 'story-verify-2' }),
    ]);
    expect(failed.text).not.toContain(wrongKey);

    const verified = await logged(() => rig.t.call('POST', '/api/v1/credentials/verify', { body: { uri: storageUri, digestMultibase, decryptionKey } }));
    expect(verified.result.body.verified).toBe(true);
    expect(verified.lines.filter((line) => line.message === 'Credential not verified')).toEqual([]);
  });
});
