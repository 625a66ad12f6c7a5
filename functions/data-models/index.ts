import { createGroupApp } from '../platform/create-app.ts';
import { registerDataModelRoutes } from './routes.ts';

/** /api/v1/data-models */
export const dataModelsApp = createGroupApp();
registerDataModelRoutes(dataModelsApp);
