import { createGroupApp } from '../platform/create-app.ts';
import { registerCreateScheme } from './create-scheme.ts';
import { registerDeleteScheme } from './delete-scheme.ts';
import { registerGetScheme } from './get-scheme.ts';
import { registerListSchemes } from './list-schemes.ts';
import { registerUpdateScheme } from './update-scheme.ts';

/** /api/v1/schemes */
export const schemesApp = createGroupApp();
registerCreateScheme(schemesApp);
registerListSchemes(schemesApp);
registerGetScheme(schemesApp);
registerUpdateScheme(schemesApp);
registerDeleteScheme(schemesApp);
