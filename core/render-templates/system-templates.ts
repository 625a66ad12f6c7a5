import { and, eq } from 'drizzle-orm';
import { CORE_DATA_MODELS } from '../data-models/core-data-models.ts';
import { renderTemplates, serviceInstances } from '../../db/schema/index.ts';
import { SYSTEM_TENANT_ID } from '../../db/system-tenant.ts';
import { SYSTEM_SERVICE_IDS } from '../settings/system-services.ts';
import { sanitizeTemplate } from './sanitize.ts';
import { storageAdapterFor } from '../service-instances/storage-instance.ts';
import type { TemplateDeps } from './template-storage.ts';

/** What each core credential shows first: a title and the fields of its subject that matter most. */
const VIEWS: Record<string, { title: string; fields: [string, string][] }> = {
  DigitalProductPassport: { title: 'Digital Product Passport', fields: [['Product', 'credentialSubject.name'], ['Identifier', 'credentialSubject.id'], ['Produced by', 'credentialSubject.producedByParty.name']] },
  DigitalConformityCredential: { title: 'Conformity Credential', fields: [['Assessment', 'credentialSubject.name'], ['Scheme', 'credentialSubject.conformityScheme.name'], ['Assessor', 'issuer.name']] },
  DigitalFacilityRecord: { title: 'Facility Record', fields: [['Facility', 'credentialSubject.name'], ['Identifier', 'credentialSubject.id'], ['Operated by', 'credentialSubject.operatedByParty.name']] },
  DigitalIdentityAnchor: { title: 'Identity Anchor', fields: [['Registered party', 'credentialSubject.name'], ['Registered id', 'credentialSubject.registeredId'], ['Register', 'credentialSubject.registerType']] },
  DigitalTraceabilityEvent: { title: 'Traceability Event', fields: [['Event', 'credentialSubject.name'], ['Event id', 'credentialSubject.id'], ['Time', 'credentialSubject.eventDate']] },
  ConformityScheme: { title: 'Conformity Scheme', fields: [['Scheme', 'credentialSubject.name'], ['Owner', 'credentialSubject.owner.name'], ['Scheme id', 'credentialSubject.id']] },
};

/** A clean, accessible card (landmarks, headings, a definition list, print-friendly CSS) with placeholders. */
export const systemTemplateHtml = (credentialType: string, version: string): string => {
  const view = VIEWS[credentialType] ?? { title: credentialType, fields: [['Subject', 'credentialSubject.name']] };
  const rows = view.fields.map(([label, path]) => `      <dt>${label}</dt><dd>{{${path}}}</dd>`).join('\n');
  return `<style>
  .untp-card { font-family: system-ui, sans-serif; max-width: 40rem; margin: 1rem auto; padding: 1.5rem; border: 1px solid #c8ced6; border-radius: 0.75rem; color: #1b1f24; background: #fff; }
  .untp-card h1 { font-size: 1.4rem; margin: 0 0 0.25rem; }
  .untp-card .untp-meta { color: #4a5561; margin: 0 0 1rem; font-size: 0.9rem; }
  .untp-card dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.5rem 1rem; margin: 0; }
  .untp-card dt { font-weight: 600; }
  .untp-card dd { margin: 0; overflow-wrap: anywhere; }
  @media print { .untp-card { border: none; } }
</style>
<article class="untp-card" aria-labelledby="untp-card-title" lang="en">
  <header>
    <h1 id="untp-card-title">${view.title}</h1>
    <p class="untp-meta">UNTP ${version} · issued by {{issuer.name}} · valid from {{validFrom}}</p>
  </header>
  <section aria-label="Summary">
    <dl>
${rows}
    </dl>
  </section>
  <footer class="untp-meta"><p>Credential {{id}}</p></footer>
</article>`;
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
