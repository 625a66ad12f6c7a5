import '@hono/zod-openapi';
import * as z from 'zod';
import type { LinkRecord } from '../../core/identifier-links/link-repository.ts';
import { ACCESS_ROLES, isLanguageTag } from '../../core/identifier-links/link-vocabulary.ts';
import { bool, nonBlankText, text } from '../platform/fields.ts';
import { ErrorResponseSchema, jsonResponse } from '../platform/openapi-responses.ts';

export const linkTags = ['Identifier links'];

/** The resolver's answers as ours: its refusal of the link (422) and its failure or our misconfiguration (502). */
export const upstreamResponses = {
  422: jsonResponse(
    ErrorResponseSchema,
    "IDR_REJECTED: the resolver refused the link; the message names our field. IDR_NAMESPACE_UNKNOWN: the resolver does not know the registrar's namespace (named in the message)",
  ),
  502: jsonResponse(ErrorResponseSchema, 'IDR_UNAVAILABLE: the resolver failed, timed out, refused our credentials or is not at the configured URL (fixed text per kind; the detail is logged)'),
};

const ENCRYPTION_METHODS = ['none', 'AES-128', 'AES-256'] as const;

export { isLanguageTag };

const languageTag = () => text().refine(isLanguageTag, 'must be a well-formed BCP 47 language tag');

const linkFields = {
  href: nonBlankText('url').openapi({ description: 'Absolute http(s) URL without credentials; public unless allowed; published canonical' }),
  rel: nonBlankText().openapi({ description: 'Link type, e.g. untp:dpp', example: 'untp:dpp' }),
  type: nonBlankText().openapi({ description: 'MIME type', example: 'text/html' }),
  title: text(),
  hreflang: z.array(languageTag(), { error: 'must be an array of language tags' }),
  context: text().openapi({ description: 'Accepted; no effect' }),
  default: bool().openapi({ description: 'Accepted; no effect' }),
  method: z.enum(['GET', 'POST'], { error: 'must be GET or POST' }).openapi({ description: 'Accepted; no effect' }),
  encryptionMethod: z
    .enum(ENCRYPTION_METHODS, { error: `must be one of ${ENCRYPTION_METHODS.join(', ')}` })
    .openapi({ description: 'Omitted stays absent upstream; none is sent as none' }),
  accessRole: z.array(z.enum(ACCESS_ROLES, { error: `must be one of ${ACCESS_ROLES.join(', ')}` }), { error: 'must be an array' }),
  additionalRels: z.array(nonBlankText(), { error: 'must be an array of strings' }),
  public: bool(),
};

export const LinkSchema = z
  .object({
    ...linkFields,
    title: linkFields.title.optional(),
    hreflang: linkFields.hreflang.optional(),
    context: linkFields.context.optional(),
    default: linkFields.default.optional(),
    method: linkFields.method.optional(),
    encryptionMethod: linkFields.encryptionMethod.optional(),
    accessRole: linkFields.accessRole.optional(),
    additionalRels: linkFields.additionalRels.optional(),
    public: linkFields.public.optional(),
  })
  .openapi('Link');

export const PublishLinksBody = z
  .object({
    links: z.array(LinkSchema, { error: (i) => (i.input === undefined ? 'is required' : 'must be an array') }).min(1, 'must contain at least one link'),
    qualifierPath: text()
      .regex(/^\/([a-zA-Z0-9]+\/\w+(\/[a-zA-Z0-9]+\/\w+)*)?$/, 'must be / or /key/value pairs such as /10/LOT1')
      .optional(),
    description: nonBlankText('description').optional(),
  })
  .openapi('PublishLinks');

export const UpdateLinkBody = z.object(linkFields).partial().openapi('UpdateLink');

export const LinkRecordSchema = z
  .object({
    id: z.string(),
    identifierId: z.string(),
    idrLinkId: z.string(),
    idrServiceInstanceId: z.string().nullable(),
    qualifierPath: z.string(),
    description: z.string().nullable(),
    published: z.record(z.string(), z.unknown()),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('LinkRegistration');

export const LinkDetailSchema = z
  .object({
    link: z.record(z.string(), z.unknown()).nullable(),
    localRecord: LinkRecordSchema,
    desync: z.literal(true).optional(),
    warning: z.string().optional(),
  })
  .openapi('LinkDetail');

export const LinkParams = z.object({
  id: z.string().openapi({ param: { name: 'id', in: 'path' } }),
  linkId: z.string().openapi({ param: { name: 'linkId', in: 'path' } }),
});
export const IdentifierParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: 'ckv9x2l0k0000qzrm8d1b2c3d' }) });

export const toLinkRecordResponse = (r: LinkRecord): z.infer<typeof LinkRecordSchema> => ({
  id: r.id,
  identifierId: r.identifierId,
  idrLinkId: r.idrLinkId,
  idrServiceInstanceId: r.idrServiceInstanceId,
  qualifierPath: r.qualifierPath,
  description: r.description,
  published: r.published as Record<string, unknown>,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});
