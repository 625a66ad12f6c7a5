import { createGroupApp } from '../platform/create-app.ts';
import { registerCreateDid } from './create-did.ts';
import { registerDeleteDid } from './delete-did.ts';
import { registerGetDidDocument } from './get-did-document.ts';
import { registerGetDid } from './get-did.ts';
import { registerImportDid } from './import-did.ts';
import { registerListDids } from './list-dids.ts';
import { registerUpdateDid } from './update-did.ts';
import { registerVerifyDid } from './verify-did.ts';

/** /api/v1/dids */
export const didsApp = createGroupApp();
registerCreateDid(didsApp);
registerImportDid(didsApp);
registerListDids(didsApp);
registerGetDid(didsApp);
registerGetDidDocument(didsApp);
registerVerifyDid(didsApp);
registerUpdateDid(didsApp);
registerDeleteDid(didsApp);
