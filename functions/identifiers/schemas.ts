import '@hono/zod-openapi';
import * as z from 'zod';
import { idText, nonBlankText, text } from '../platform/fields.ts';

const value = () =>
  nonBlankText().openapi({ example: '09520123456788', description: "Must match the scheme's validationPattern" });

export const CreateIdentifierBody = z
  .object({
    schemeId: idText().openapi({ description: "The tenant's own or a system scheme" }),
    value: value(),
  })
  .openapi('CreateIdentifier');

export const UpdateIdentifierBody = z.object({ value: value().optional() }).openapi('UpdateIdentifier');

export const IdentifierIdParam = z.object({
  id: text().openapi({ param: { name: 'id', in: 'path' }, example: 'cm1n2b3v4c0000zxcvbnmasdf' }),
});
