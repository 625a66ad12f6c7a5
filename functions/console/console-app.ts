import { createConsoleShell, type PageGroup } from './console-shell.ts';
import { registerCredentialPages } from './credentials/credential-pages.tsx';
import { registerDashboard } from './dashboard.tsx';
import { registerGetAsset } from './get-asset.ts';
import { FACILITIES, ORGANISATIONS, PRODUCTS } from './master-data/master-kinds.ts';
import { registerMasterPages } from './master-data/master-pages.tsx';

const registerListedMasterPages: PageGroup = (app) => {
  for (const kind of [ORGANISATIONS, FACILITIES, PRODUCTS]) registerMasterPages(app, kind, { searchable: true });
};

/**
 * The console's own edge pages (dashboard, credentials, organisations, facilities, products) and the assets;
 * `more` adds page groups served elsewhere at the edge or only by the Node web process.
 */
export const createConsoleApp = (more: PageGroup[] = []) => createConsoleShell([registerDashboard, ...more, registerCredentialPages, registerListedMasterPages], [registerGetAsset]);
