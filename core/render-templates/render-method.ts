import { eq } from 'drizzle-orm';
import { dataModels } from '../../db/schema/index.ts';
import { notFound } from '../errors.ts';
import { readPublishedTemplate, type PublishedTemplateDeps } from './published-template.ts';
import { findTemplate, type RenderTemplateRow } from './template-repository.ts';
import type { TemplateDeps } from './template-storage.ts';

/**
 * A `renderMethod` entry as a credential payload carries it. UNTP 0.7.0 requires `type` to be an array
 * containing "RenderTemplate2024" (its schema refuses a string); 0.6.x credentials carry `type` as a string,
 * and WebRenderingTemplate2022 (0.6.x only) has its template inline and nothing else but a name.
 */
export interface RenderMethodEntry {
  type: string | string[];
  name?: string;
  url?: string;
  template?: string;
  digestMultibase?: string;
  mediaType?: string;
  mediaQuery?: string;
}

type TemplateFields = Pick<RenderTemplateRow, 'name' | 'renderMethodType' | 'inline' | 'mediaType' | 'mediaQuery' | 'storageUrl' | 'digestMultibase'>;

/** The data-model versions whose credentials carry `type` as a string (0.6.0, 0.6.1, …). */
export const usesStringType = (dataModelVersion: string) => /^0\.[0-6](\.|$)/.test(dataModelVersion);

/** Whether the entry has to carry the template's content (inline RenderTemplate2024, WebRenderingTemplate2022). */
export const needsContent = (template: Pick<TemplateFields, 'renderMethodType' | 'inline'>) =>
  template.renderMethodType === 'WebRenderingTemplate2022' || template.inline === true;

/**
 * The entry for a stored template, for a credential of a data model at `dataModelVersion`. `content` is the
 * template's HTML, required when `needsContent(template)`. A linked entry names the template's URL and its
 * digestMultibase, which a verifier checks against what it fetches.
 */
export const renderMethodEntry = (template: TemplateFields, dataModelVersion: string, content?: string): RenderMethodEntry => {
  if (needsContent(template) && content === undefined) throw new Error('renderMethodEntry: this template is inline, its content is required');
  if (template.renderMethodType === 'WebRenderingTemplate2022') {
    return { type: 'WebRenderingTemplate2022', name: template.name, template: content! };
  }
  return {
    type: usesStringType(dataModelVersion) ? 'RenderTemplate2024' : ['RenderTemplate2024'],
    name: template.name,
    ...(template.inline ? { template: content! } : { url: template.storageUrl }),
    digestMultibase: template.digestMultibase,
    mediaType: template.mediaType ?? 'text/html',
    ...(template.mediaQuery ? { mediaQuery: template.mediaQuery } : {}),
  };
};

/**
 * The entry for one of the tenant's own or the system's templates (404 when it is neither), in the shape
 * of its data model's version; an inline template's content is read from its storage and digest-checked.
 */
export const renderMethodOfTemplate = async (deps: TemplateDeps & PublishedTemplateDeps, tenantId: string, templateId: string): Promise<RenderMethodEntry> => {
  const template = await findTemplate(deps, tenantId, templateId);
  if (!template) throw notFound('Render template');
  const [model] = await deps.db.select({ version: dataModels.version }).from(dataModels).where(eq(dataModels.id, template.dataModelId));
  if (!model) throw notFound('Render template');
  const content = needsContent(template) ? await readPublishedTemplate(deps, template.storageUrl, template.digestMultibase) : undefined;
  return renderMethodEntry(template, model.version, content);
};
