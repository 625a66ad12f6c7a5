import type { Context } from 'hono';
import type { TemplateDeps } from '../../core/render-templates/template-storage.ts';
import type { AppEnv } from './env.ts';

/** What the render-template domain needs from the request's services (render templates and data models). */
export const templateDeps = (c: Context<AppEnv>): TemplateDeps => {
  const { db, secretBox, fetcher, logger, settings } = c.get('services');
  return { db, box: secretBox, fetcher, logger, allowPrivateUrls: settings.allowPrivateUrls, correlationId: c.get('correlationId') };
};
