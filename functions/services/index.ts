import { createGroupApp } from '../platform/create-app.ts';
import { registerServiceRoutes } from './routes.ts';

/** /api/v1/services */
export const servicesApp = createGroupApp();
registerServiceRoutes(servicesApp);
