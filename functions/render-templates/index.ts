import { createGroupApp } from '../platform/create-app.ts';
import { registerCreateRenderTemplate } from './create-render-template.ts';
import { registerDeleteRenderTemplate } from './delete-render-template.ts';
import { registerGetRenderMethod } from './get-render-method.ts';
import { registerGetRenderTemplate } from './get-render-template.ts';
import { registerListRenderTemplates } from './list-render-templates.ts';
import { registerUpdateRenderTemplate } from './update-render-template.ts';

/** /api/v1/render-templates */
export const renderTemplatesApp = createGroupApp();
registerCreateRenderTemplate(renderTemplatesApp);
registerListRenderTemplates(renderTemplatesApp);
registerGetRenderTemplate(renderTemplatesApp);
registerGetRenderMethod(renderTemplatesApp);
registerUpdateRenderTemplate(renderTemplatesApp);
registerDeleteRenderTemplate(renderTemplatesApp);
