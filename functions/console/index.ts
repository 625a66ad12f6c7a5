import { createConsoleApp } from './console-app.ts';
import { registerIssuePages } from './issue/issue-pages.tsx';
import { registerIdentifierPages } from './master-data/identifier-kinds.ts';
import { registerBatchPages } from './batches/batch-pages.tsx';
import { registerDidPages } from './dids/did-pages.tsx';
import { registerLibraryPages } from './library/library-pages.tsx';
import { registerTemplatePages } from './templates/template-pages.tsx';

/**
 * /console: the issuer console, server-rendered pages over the same core functions as the API, under the
 * signed-in user's tenant. The Node web process serves every page, issuance included.
 */
export const consoleApp = createConsoleApp([registerIssuePages, registerIdentifierPages, registerBatchPages, registerDidPages, registerLibraryPages, registerTemplatePages]);
