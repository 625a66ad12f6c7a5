import { createGroupApp } from '../platform/create-app.ts';
import { registerCatalogueRoutes } from './routes.ts';

/** /api/v1/cvc (read-only conformity catalogue) */
export const cvcApp = createGroupApp();
registerCatalogueRoutes(cvcApp);
