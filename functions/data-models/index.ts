import { createGroupApp } from '../platform/create-app.ts';
import { registerCreateDataModel } from './create-data-model.ts';
import { registerDeleteDataModel } from './delete-data-model.ts';
import { registerGetDataModel } from './get-data-model.ts';
import { registerGetFormConfig } from './get-form-config.ts';
import { registerListDataModels } from './list-data-models.ts';
import { registerUpdateDataModel } from './update-data-model.ts';

/** /api/v1/data-models */
export const dataModelsApp = createGroupApp();
registerListDataModels(dataModelsApp);
registerCreateDataModel(dataModelsApp);
registerGetDataModel(dataModelsApp);
registerGetFormConfig(dataModelsApp);
registerUpdateDataModel(dataModelsApp);
registerDeleteDataModel(dataModelsApp);
