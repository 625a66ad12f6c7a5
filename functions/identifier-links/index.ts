import { createGroupApp } from '../platform/create-app.ts';
import { registerIdentifierLinkRoutes } from './routes.ts';

/**
 * /api/v1/identifiers/{id}/links… alone, for this group's own edge entry. The web process serves the same routes
 * through the identifiers group, which registers them too (one route table: routes.ts).
 */
export const identifierLinksApp = createGroupApp();
registerIdentifierLinkRoutes(identifierLinksApp);
