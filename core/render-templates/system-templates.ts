import { and, eq } from 'drizzle-orm';
import { CORE_DATA_MODELS } from '../data-models/core-data-models.ts';
import { renderTemplates, serviceInstances } from '../../db/schema/index.ts';
import { SYSTEM_TENANT_ID } from '../../db/system-tenant.ts';
import { SYSTEM_SERVICE_IDS } from '../settings/system-services.ts';
import { sanitizeTemplate } from './sanitize.ts';
import { SYSTEM_TEMPLATE_STYLE, systemView } from './system-template-views.ts';
import { storageAdapterFor } from '../service-instances/storage-instance.ts';
import type { TemplateDeps } from './template-storage.ts';

/**
 * A clean, accessible card for a core credential type (landmarks, headings, definition lists, readable from
 * 320 px up, print-friendly), in the Handlebars-style syntax the verify page and the console render.
 */
export const systemTemplateHtml = (credentialType: string, version: string): string => {
  const view = systemView(credentialType, version);
  return `${SYSTEM_TEMPLATE_STYLE}
<main>
<article class="untp-card" aria-labelledby="untp-card-title" lang="en">
  <header>
    <p class="untp-kind">${view.title} · UNTP ${version}</p>
    <h1 id="untp-card-title">{{${view.name}}}</h1>
    <p class="untp-meta">Issued by {{#if issuer.name}}{{issuer.name}}{{else}}{{issuer.id}}{{/if}}{{#if validFrom}} · valid from {{validFrom}}{{/if}}{{#if validUntil}} until {{validUntil}}{{/if}}</p>
  </header>
  ${view.body}
  <footer class="untp-muted"><p>Credential {{id}}</p></footer>
</article>
</main>`;
};

/**
 * One system template per core data model, stored through the system storage instance. Run by the
 * web process after start-up; models that already have theirs are skipped, and a storage failure is
 * logged and retried at the next start.
 */
export const seedSystemTemplates = async (deps: TemplateDeps): Promise<number> => {
  const [storage] = await deps.db.select().from(serviceInstances).where(eq(serviceInstances.id, SYSTEM_SERVICE_IDS.STORAGE));
  if (!storage) return 0;
  const adapter = await storageAdapterFor(deps, storage.configEncrypted);
  let created = 0;
  for (const model of CORE_DATA_MODELS) {
    const [existing] = await deps.db
      .select({ id: renderTemplates.id })
      .from(renderTemplates)
      .where(and(eq(renderTemplates.tenantId, SYSTEM_TENANT_ID), eq(renderTemplates.dataModelId, model.id)));
    if (existing) continue;
    const html = sanitizeTemplate(systemTemplateHtml(model.credentialType, model.version)).html;
    const objectId = crypto.randomUUID();
    try {
      const stored = await adapter.storeFile(new TextEncoder().encode(html), 'text/html', { encrypt: false, id: objectId, filename: 'template.html' });
      await deps.db
        .insert(renderTemplates)
        .values({
          tenantId: SYSTEM_TENANT_ID,
          dataModelId: model.id,
          name: `${model.name} Default Template`,
          renderMethodType: 'RenderTemplate2024',
          isDefault: true,
          inline: false,
          mediaType: 'text/html',
          mediaQuery: null,
          storageServiceInstanceId: storage.id,
          storageObjectId: objectId,
          storageUrl: stored.uri,
          digestMultibase: stored.digestMultibase,
        })
        .onConflictDoNothing();
      created += 1;
    } catch (error) {
      deps.logger.warn('System render template not stored; retried at the next start', { dataModelId: model.id, error: String(error) });
      return created;
    }
  }
  return created;
};
