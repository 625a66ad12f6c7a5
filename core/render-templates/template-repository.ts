import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { dataModels, renderTemplates } from '../../db/schema/index.ts';
import { adapterFailure } from '../adapters/adapter-failure.ts';
import { badRequest, notFound, notFoundAt } from '../errors.ts';
import { assertWritable, visibleTo } from '../tenancy/visibility.ts';
import { sanitizeOffThread } from './sanitize-pool.ts';
import { deleteContentBestEffort, resolveTemplateStorage, type TemplateDeps } from './template-storage.ts';

export type RenderTemplateRow = typeof renderTemplates.$inferSelect;
type MethodType = RenderTemplateRow['renderMethodType'];

export interface TemplateInput {
  name: string;
  dataModelId: string;
  renderMethodType: MethodType;
  template: string;
  isDefault?: boolean;
  inline?: boolean;
  mediaType?: string | null;
  mediaQuery?: string | null;
  storageOptions?: { serviceInstanceId?: string };
}
export interface TemplatePatch {
  name?: string;
  template?: string;
  isDefault?: boolean;
  inline?: boolean;
  mediaType?: string | null;
  mediaQuery?: string | null;
  storageOptions?: { serviceInstanceId?: string };
}

const ONLY_2024 = ['inline', 'mediaType', 'mediaQuery'] as const;

/** inline, mediaType and mediaQuery belong to RenderTemplate2024; sending them for 2022 is a 400. */
const assertFieldsFitType = (type: MethodType, input: Record<string, unknown>) => {
  if (type !== 'WebRenderingTemplate2022') return;
  const stray = ONLY_2024.find((k) => input[k] !== undefined);
  if (stray) throw badRequest(`${stray}: is not applicable to the WebRenderingTemplate2022 render method (only RenderTemplate2024 has it)`);
};

const storageFailure = (deps: TemplateDeps, error: unknown) =>
  adapterFailure(error, { logger: deps.logger, correlationId: deps.correlationId, action: 'store the template' });

/** Sanitises (logging what was stripped) and uploads content; returns where it lives. */
const upload = async (deps: TemplateDeps, adapter: Awaited<ReturnType<typeof resolveTemplateStorage>>['adapter'], html: string) => {
  const { html: clean, removed } = await sanitizeOffThread(html);
  if (removed.length > 0) deps.logger.warn('Render template content was sanitised', { removed });
  const objectId = crypto.randomUUID();
  try {
    const stored = await adapter.storeFile(new TextEncoder().encode(clean), 'text/html', { encrypt: false, id: objectId, filename: 'template.html' });
    return { storageObjectId: objectId, storageUrl: stored.uri, digestMultibase: stored.digestMultibase };
  } catch (error) {
    throw storageFailure(deps, error);
  }
};

/** One default per data model per tenant: the new default demotes the old one in the same transaction. */
const demoteDefault = async (tx: Queryable, tenantId: string, dataModelId: string) => {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`template-default:${tenantId}:${dataModelId}`}))`);
  await tx
    .update(renderTemplates)
    .set({ isDefault: false, updatedAt: new Date() })
    .where(and(eq(renderTemplates.tenantId, tenantId), eq(renderTemplates.dataModelId, dataModelId), eq(renderTemplates.isDefault, true)));
};

export const createTemplate = async (deps: TemplateDeps, tenantId: string, input: TemplateInput): Promise<RenderTemplateRow> => {
  assertFieldsFitType(input.renderMethodType, input as unknown as Record<string, unknown>);
  const [model] = await deps.db
    .select({ id: dataModels.id })
    .from(dataModels)
    .where(and(eq(dataModels.id, input.dataModelId), visibleTo(dataModels.tenantId, tenantId)));
  if (!model) throw notFoundAt('dataModelId', 'data model');
  const storage = await resolveTemplateStorage(deps, tenantId, input.storageOptions?.serviceInstanceId);
  const content = await upload(deps, storage.adapter, input.template);
  const is2024 = input.renderMethodType === 'RenderTemplate2024';
  try {
    return await deps.db.transaction(async (tx) => {
      if (input.isDefault) await demoteDefault(tx, tenantId, input.dataModelId);
      const [row] = await tx
        .insert(renderTemplates)
        .values({
          tenantId,
          dataModelId: input.dataModelId,
          name: input.name,
          renderMethodType: input.renderMethodType,
          isDefault: input.isDefault ?? false,
          inline: is2024 ? (input.inline ?? false) : null,
          mediaType: is2024 ? (input.mediaType ?? 'text/html') : null,
          mediaQuery: is2024 ? (input.mediaQuery ?? null) : null,
          storageServiceInstanceId: storage.id,
          ...content,
        })
        .returning();
      return row!;
    });
  } catch (error) {
    await deleteContentBestEffort(deps, [{ storageServiceInstanceId: storage.id, storageObjectId: content.storageObjectId }]);
    throw error;
  }
};

export const listTemplates = async (deps: TemplateDeps, tenantId: string, filter: { dataModelId?: string }, page: { limit: number; offset: number }) => {
  const where = and(visibleTo(renderTemplates.tenantId, tenantId), filter.dataModelId ? eq(renderTemplates.dataModelId, filter.dataModelId) : undefined);
  const [rows, [counted]] = await Promise.all([
    deps.db.select().from(renderTemplates).where(where).orderBy(desc(renderTemplates.createdAt), desc(renderTemplates.id)).limit(page.limit).offset(page.offset),
    deps.db.select({ total: count() }).from(renderTemplates).where(where),
  ]);
  return { rows, total: counted?.total ?? 0 };
};

export const findTemplate = async (deps: TemplateDeps, tenantId: string, id: string) => {
  const [row] = await deps.db.select().from(renderTemplates).where(and(eq(renderTemplates.id, id), visibleTo(renderTemplates.tenantId, tenantId)));
  return row;
};

/**
 * PATCH: storage is resolved first (a bad instance is a 404 even when the template id is wrong too),
 * then the template (own only); new content replaces the old, whose deletion is best-effort.
 */
export const updateTemplate = async (deps: TemplateDeps, tenantId: string, id: string, patch: TemplatePatch): Promise<RenderTemplateRow> => {
  const storage = patch.template !== undefined ? await resolveTemplateStorage(deps, tenantId, patch.storageOptions?.serviceInstanceId) : undefined;
  const current = assertWritable(await findTemplate(deps, tenantId, id), tenantId, 'Render template');
  assertFieldsFitType(current.renderMethodType, patch as Record<string, unknown>);
  const changes: Partial<RenderTemplateRow> = { updatedAt: new Date() };
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.inline !== undefined) changes.inline = patch.inline;
  if (patch.mediaType !== undefined) changes.mediaType = patch.mediaType ?? 'text/html';
  if (patch.mediaQuery !== undefined) changes.mediaQuery = patch.mediaQuery;
  if (patch.isDefault !== undefined) changes.isDefault = patch.isDefault;
  if (storage && patch.template !== undefined) {
    Object.assign(changes, await upload(deps, storage.adapter, patch.template), { storageServiceInstanceId: storage.id });
  }
  try {
    const updated = await deps.db.transaction(async (tx) => {
      if (patch.isDefault) await demoteDefault(tx, tenantId, current.dataModelId);
      const [row] = await tx.update(renderTemplates).set(changes).where(and(eq(renderTemplates.id, id), eq(renderTemplates.tenantId, tenantId))).returning();
      if (!row) throw notFound('Render template');
      return row;
    });
    if (storage) await deleteContentBestEffort(deps, [current]);
    return updated;
  } catch (error) {
    // The record still points at the old content: the content just uploaded would be an orphan.
    if (storage && changes.storageObjectId) await deleteContentBestEffort(deps, [{ storageServiceInstanceId: storage.id, storageObjectId: changes.storageObjectId }]);
    throw error;
  }
};

/** Deletes one of the tenant's templates; its stored content goes afterwards, best-effort. */
export const deleteTemplate = async (deps: TemplateDeps, tenantId: string, id: string): Promise<void> => {
  const current = assertWritable(await findTemplate(deps, tenantId, id), tenantId, 'Render template');
  await deps.db.delete(renderTemplates).where(and(eq(renderTemplates.id, id), eq(renderTemplates.tenantId, tenantId)));
  await deleteContentBestEffort(deps, [current]);
};

/** Templates of a data model (for its single response and its cascade delete). */
export const templatesOfModel = (db: Queryable, tenantId: string, dataModelId: string) =>
  db.select().from(renderTemplates).where(and(eq(renderTemplates.dataModelId, dataModelId), visibleTo(renderTemplates.tenantId, tenantId)));
