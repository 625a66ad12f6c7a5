import { createGroupApp } from '../platform/create-app.ts';
import { registerServiceRoutes } from './routes.ts';

/** /api/v1/services */
export const serviceInstancesApp = createGroupApp();
registerServiceRoutes(serviceInstancesApp);
