import { createGroupApp } from '../platform/create-app.ts';
import { registerCreateFacilities } from './create-facilities.ts';
import { registerDeleteFacility } from './delete-facility.ts';
import { registerGetFacility } from './get-facility.ts';
import { registerListFacilities } from './list-facilities.ts';
import { registerUpdateFacility } from './update-facility.ts';

/** /api/v1/facilities */
export const facilitiesApp = createGroupApp();
registerCreateFacilities(facilitiesApp);
registerListFacilities(facilitiesApp);
registerGetFacility(facilitiesApp);
registerUpdateFacility(facilitiesApp);
registerDeleteFacility(facilitiesApp);
