import { createGroupApp } from '../platform/create-app.ts';
import { registerCreateRegistrar } from './create-registrar.ts';
import { registerDeleteRegistrar } from './delete-registrar.ts';
import { registerGetRegistrar } from './get-registrar.ts';
import { registerListRegistrars } from './list-registrars.ts';
import { registerUpdateRegistrar } from './update-registrar.ts';

/** /api/v1/registrars */
export const registrarsApp = createGroupApp();
registerCreateRegistrar(registrarsApp);
registerListRegistrars(registrarsApp);
registerGetRegistrar(registrarsApp);
registerUpdateRegistrar(registrarsApp);
registerDeleteRegistrar(registrarsApp);
