import { registerIdentifierLinkRoutes } from '../identifier-links/routes.ts';
import { createGroupApp } from '../platform/create-app.ts';
import { registerCreateIdentifier } from './create-identifier.ts';
import { registerDeleteIdentifier } from './delete-identifier.ts';
import { registerGetIdentifier } from './get-identifier.ts';
import { registerListIdentifiers } from './list-identifiers.ts';
import { registerUpdateIdentifier } from './update-identifier.ts';

/** /api/v1/identifiers */
export const identifiersApp = createGroupApp();
registerCreateIdentifier(identifiersApp);
registerListIdentifiers(identifiersApp);
registerGetIdentifier(identifiersApp);
registerUpdateIdentifier(identifiersApp);
registerDeleteIdentifier(identifiersApp);
registerIdentifierLinkRoutes(identifiersApp);
