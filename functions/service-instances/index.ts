import { createGroupApp } from '../platform/create-app.ts';
import { registerCreateServiceInstance } from './create-service-instance.ts';
import { registerDeleteServiceInstance } from './delete-service-instance.ts';
import { registerGetServiceInstance } from './get-service-instance.ts';
import { registerListServiceInstances } from './list-service-instances.ts';
import { registerUpdateServiceInstance } from './update-service-instance.ts';

/** /api/v1/services */
export const serviceInstancesApp = createGroupApp();
registerCreateServiceInstance(serviceInstancesApp);
registerListServiceInstances(serviceInstancesApp);
registerGetServiceInstance(serviceInstancesApp);
registerUpdateServiceInstance(serviceInstancesApp);
registerDeleteServiceInstance(serviceInstancesApp);
