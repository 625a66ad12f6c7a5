import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { findCredential } from '../../core/credentials/credential-repository.ts';
import { badRequest, conflict, notFound } from '../../core/errors.ts';
import { QR_SIZE, qrCodePng, qrCodeSvg } from '../../core/qr/qr-code.ts';
import type { AppEnv } from '../platform/env.ts';
import { enumFilter } from '../platform/filters.ts';
import { pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { credentialIdOf, CredentialIdParam, verifyUrlOf } from './schemas.ts';

const QrQuery = z.object({
  format: enumFilter(['svg', 'png'] as const).openapi({ description: 'svg (default) or png' }),
  size: z.string().optional().openapi({ description: `Width and height in pixels, ${QR_SIZE.min}–${QR_SIZE.max}, default ${QR_SIZE.default}`, example: '256' }),
  errorCorrection: enumFilter(['L', 'M', 'Q', 'H'] as const).openapi({ description: 'How much of the printed code may be damaged: L 7 %, M 15 % (default), Q 25 %, H 30 %' }),
  target: enumFilter(['verify', 'resolver'] as const).openapi({
    description: 'verify (default): the credential’s verify-page link. resolver: its identity-resolver URI (published credentials only), so one printed code survives re-issuance',
  }),
});

const sizeOf = (value: string | undefined) => {
  if (value === undefined) return QR_SIZE.default;
  const size = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!(size >= QR_SIZE.min && size <= QR_SIZE.max)) throw badRequest(`size: must be an integer from ${QR_SIZE.min} to ${QR_SIZE.max}`);
  return size;
};

export const getCredentialQrRoute = createRoute({
  operationId: 'getCredentialQr',
  method: 'get',
  path: '/{id}/qr',
  tags: ['Credentials'],
  summary: 'A QR code of the credential’s human link (or its resolver URI), as SVG or PNG',
  description:
    'The code carries exactly the `verifyUrl` of the credential record (with the decryption key only when the issuance chose ' +
    '`publishingOptions.humanLinkIncludesKey`), or with `target=resolver` the resolver URI of a published credential (409 `CREDENTIAL_NOT_PUBLISHED` otherwise).',
  security: guarded,
  request: { params: CredentialIdParam, query: QrQuery },
  responses: {
    200: {
      description: 'The QR code',
      content: { 'image/svg+xml': { schema: z.string() }, 'image/png': { schema: z.string().openapi({ format: 'binary' }) } },
    },
    ...pick(400, 401, 403, 404, 409, 500),
  },
});

export const registerGetCredentialQr = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(getCredentialQrRoute, async (c) => {
    const id = credentialIdOf(c.req.valid('param'));
    const query = c.req.valid('query');
    const size = sizeOf(query.size);
    const { db, secretBox, settings } = c.get('services');
    const row = await findCredential(db, c.get('principal').tenantId, id);
    if (!row) throw notFound('Credential');
    let text: string;
    if (query.target === 'resolver') {
      if (!row.credential.resolverUri) throw conflict('target: the credential is not published to an identity resolver, so it has no resolver URI', 'CREDENTIAL_NOT_PUBLISHED');
      text = row.credential.resolverUri;
    } else {
      const key = row.credential.wrappedDecryptionKey ? await secretBox.decrypt(row.credential.wrappedDecryptionKey) : null;
      text = verifyUrlOf(row, key, settings.appUrl);
    }
    const options = { size, errorCorrection: query.errorCorrection ?? 'M' };
    let image: string | Uint8Array;
    try {
      image = query.format === 'png' ? await qrCodePng(text, options) : await qrCodeSvg(text, options);
    } catch {
      throw badRequest(`errorCorrection: the link (${text.length} characters) does not fit in a QR code at level ${options.errorCorrection}; choose a lower level`);
    }
    // The code may carry a decryption key: never stored by a shared cache.
    c.header('Cache-Control', 'private, no-store');
    c.header('Content-Type', query.format === 'png' ? 'image/png' : 'image/svg+xml; charset=utf-8');
    return c.body(image as never, 200) as never;
  });
