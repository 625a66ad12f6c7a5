import { createGroupApp } from '../platform/create-app.ts';
import { registerListConformityCriteria } from './list-criteria.ts';
import { registerListConformityProfiles } from './list-profiles.ts';
import { registerListConformitySchemes } from './list-schemes.ts';

/** /api/v1/cvc (read-only conformity catalogue) */
export const cvcApp = createGroupApp();
registerListConformitySchemes(cvcApp);
registerListConformityProfiles(cvcApp);
registerListConformityCriteria(cvcApp);
