import type { Hono } from 'hono';
import { findCredential } from '../../../core/credentials/credential-repository.ts';
import { notFound } from '../../../core/errors.ts';
import { qrCodeSvg } from '../../../core/qr/qr-code.ts';
import { toCredentialResponse } from '../../credentials/schemas.ts';
import type { ConsoleEnv } from '../console-env.ts';
import { renderPage } from '../layout.tsx';
import { CredentialFacts } from './credential-view.tsx';

/** GET /console/credentials/:id: one of the tenant's credentials (another tenant's is the 404 of a missing one). */
export const registerCredentialPages = (app: Hono<ConsoleEnv>) => {
  app.get('/credentials/:id', async (c) => {
    const { db, secretBox, settings } = c.get('services');
    const row = await findCredential(db, c.get('principal').tenantId, c.req.param('id'));
    if (!row) throw notFound('Credential');
    const key = row.credential.wrappedDecryptionKey ? await secretBox.decrypt(row.credential.wrappedDecryptionKey) : null;
    const view = toCredentialResponse(row, key, settings.appUrl);
    return renderPage(c, view.name ?? 'Credential', <CredentialFacts view={view} qrSvg={await qrCodeSvg(view.verifyUrl, { size: 256 })} />);
  });
};
