import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../platform/env.ts';
import { registerDeleteLink } from './delete-link.ts';
import { registerGetLink } from './get-link.ts';
import { registerListLinks } from './list-links.ts';
import { registerPublishLinks } from './publish-links.ts';
import { registerUpdateLink } from './update-link.ts';

/** `/identifiers/{id}/links…`, registered on the identifiers group; one operation per file. */
export const registerIdentifierLinkRoutes = (app: OpenAPIHono<AppEnv>) => {
  registerPublishLinks(app);
  registerListLinks(app);
  registerGetLink(app);
  registerUpdateLink(app);
  registerDeleteLink(app);
};
