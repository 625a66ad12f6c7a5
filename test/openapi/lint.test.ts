import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { buildApiDocument } from './api-document.ts';

/**
 * Warnings of Redocly's recommended rules that the API keeps on purpose, with why; any other problem fails.
 * - no-ambiguous-paths: `/credentials/{id}/status` and `/credentials/{id}/qr` beside `/credentials/batches/{id}`
 *   (the specification's paths); the router tries `batches` first (functions/app.ts), so no request is ambiguous.
 * - operation-4xx-response: GET /api/health answers 200 or 503 only, as load balancers expect.
 * - info-license: the product is not published under a licence.
 */
const KEPT_WARNINGS = ['no-ambiguous-paths', 'operation-4xx-response', 'info-license'];
/** How many of each kept warning there are: one more is a new problem. */
const KEPT_COUNT = 4;

describe('the OpenAPI document under Redocly lint (recommended rules, offline)', () => {
  it('has no errors and no warnings but the ones kept on purpose', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const source = JSON.stringify(buildApiDocument('https://credentials.example.org'));
    const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
    const report = problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`);
    const errors = report.filter((line) => line.startsWith('error'));
    const warnings = problems.filter((p) => p.severity === 'warn');
    console.info(`Redocly recommended: ${errors.length} errors, ${warnings.length} warnings (${warnings.map((p) => p.ruleId).join(', ')})`);
    expect(errors).toEqual([]);
    expect(report.filter((line) => line.startsWith('warn') && !KEPT_WARNINGS.some((rule) => line.startsWith(`warn ${rule} `)))).toEqual([]);
    expect(warnings.length).toBeLessThanOrEqual(KEPT_COUNT);
  });

  it('finds a broken document (the check can fail)', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const doc = buildApiDocument('https://credentials.example.org');
    const problems = await lintFromString({ source: JSON.stringify({ ...doc, servers: undefined, paths: { ...doc.paths, '/x': { get: { responses: {} } } } }), absoluteRef: 'openapi.json', config });
    expect(problems.filter((p) => p.severity === 'error').map((p) => p.ruleId)).toEqual(expect.arrayContaining(['no-empty-servers', 'security-defined']));
  });
});
