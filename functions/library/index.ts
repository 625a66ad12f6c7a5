import { createGroupApp } from '../platform/create-app.ts';
import { registerBatchGetLibrary } from './batch-get-library.ts';
import { registerDeleteExternal } from './delete-external.ts';
import { registerGetLibraryRecord } from './get-library-record.ts';
import { registerListLibrary } from './list-library.ts';
import { registerRegisterExternal } from './register-external.ts';
import { registerReplaceTags } from './replace-tags.ts';
import { registerReverifyRecord } from './reverify-record.ts';
import { registerUpdateAnnotations } from './update-annotations.ts';

/** /api/v1/library: native and external credentials of the tenant in one place. */
export const libraryApp = createGroupApp();
registerListLibrary(libraryApp);
registerBatchGetLibrary(libraryApp);
registerRegisterExternal(libraryApp);
registerGetLibraryRecord(libraryApp);
registerUpdateAnnotations(libraryApp);
registerReplaceTags(libraryApp);
registerReverifyRecord(libraryApp);
registerDeleteExternal(libraryApp);
