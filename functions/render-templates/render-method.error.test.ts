import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderTemplates } from '../../db/schema/index.ts';
import { freePort } from '../../test/rig/postgres-server.ts';
import { renderTemplateBody, startRenderTemplateRig, type RenderTemplateRig } from '../../test/rig/template-fixtures.ts';

let rig: RenderTemplateRig;

beforeAll(async () => {
  rig = await startRenderTemplateRig();
});
afterAll(() => rig.close());

const renderMethod = (id: string) => rig.t.call('GET', `/api/v1/render-templates/${id}/render-method`, { token: rig.token });

describe('GET /render-templates/{id}/render-method: errors', () => {
  it('an unknown id is a 404 naming the render template', async () => {
    const res = await renderMethod('c0000000000000000000000000');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: expect.any(String), error: expect.stringMatching(/render template/i) });
  });

  it('an inline template whose stored content cannot be read, or no longer matches its digest, is a 502 without internal addresses', async () => {
    const made = await rig.t.call('POST', '/api/v1/render-templates', { token: rig.token, body: renderTemplateBody({ template: '<p>{{id}}</p>', inline: true }) });
    expect(made.status).toBe(201);
    const gone = `http://127.0.0.1:${await freePort()}/api/v4/documents/gone.html`;
    const altered = { digestMultibase: 'zQmYtUc4iTCbbfVSDNKvtQqrfyezPPnFvE33wFmutw9PBBk' };
    for (const change of [{ storageUrl: gone }, altered]) {
      await rig.t.db.update(renderTemplates).set(change).where(eq(renderTemplates.id, made.body.id));
      const res = await renderMethod(made.body.id);
      expect(res.status, JSON.stringify(change)).toBe(502);
      expect(res.body).toEqual({ error: 'The render template could not be read from its storage service', code: 'TEMPLATE_UNAVAILABLE' });
      expect(res.text).not.toContain('127.0.0.1');
    }
  });
});
