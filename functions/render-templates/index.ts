import { createGroupApp } from '../platform/create-app.ts';
import { registerRenderTemplateRoutes } from './routes.ts';

/** /api/v1/render-templates */
export const renderTemplatesApp = createGroupApp();
registerRenderTemplateRoutes(renderTemplatesApp);
