import { createGroupApp } from '../platform/create-app.ts';
import { registerCreateOrganisations } from './create-organisations.ts';
import { registerDeleteOrganisation } from './delete-organisation.ts';
import { registerGetOrganisation } from './get-organisation.ts';
import { registerListOrganisations } from './list-organisations.ts';
import { registerUpdateOrganisation } from './update-organisation.ts';

/** /api/v1/organisations */
export const organisationsApp = createGroupApp();
registerCreateOrganisations(organisationsApp);
registerListOrganisations(organisationsApp);
registerGetOrganisation(organisationsApp);
registerUpdateOrganisation(organisationsApp);
registerDeleteOrganisation(organisationsApp);
