import { z } from '@hono/zod-openapi';
import { patternProblem, QUALIFIER_ORDER_MAX } from '../../core/schemes/patterns.ts';
import type { findScheme, SchemeRow } from '../../core/schemes/scheme-repository.ts';
import { ownershipFlag } from '../../core/tenancy/visibility.ts';
import { idText, nonBlankText, text } from '../platform/fields.ts';
import { QualifierSchema, RegistrarSchema, toRegistrarResponse } from '../registrars/schemas.ts';

const timestamps = {
  createdAt: z.string().openapi({ format: 'date-time' }),
  updatedAt: z.string().openapi({ format: 'date-time' }),
};

export const SchemeSchema = z
  .object({
    id: z.string().openapi({ example: 'cq8w1x2y3z0000abcdefghijk' }),
    registrarId: z.string(),
    name: z.string().openapi({ example: 'Global Trade Item Number' }),
    primaryKey: z.string().openapi({ example: '01' }),
    validationPattern: z.string().openapi({ example: '^\\d{14}$' }),
    linkTemplate: z.string().openapi({ example: '/{primaryKey}/{value}' }),
    idrServiceInstanceId: z.string().nullable(),
    isSystemDefault: z.boolean(),
    qualifiers: z.array(QualifierSchema),
    ...timestamps,
  })
  .openapi('IdentifierScheme');

export const SchemeWithRegistrarSchema = SchemeSchema.extend({ registrar: RegistrarSchema }).openapi(
  'IdentifierSchemeWithRegistrar',
);

/** A regular expression source: required, compiles in RE2 syntax (the 400 says why not); whitespace-only is accepted. */
const pattern = () =>
  text('pattern')
    .min(1, 'must not be empty')
    .superRefine((value, ctx) => {
      const problem = patternProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .openapi({ description: 'RE2 regular expression (linear time; no lookaround or backreferences), applied as written (anchor it yourself)' });

const order = () =>
  z
    .number({ error: (issue) => (issue.input === null ? 'must not be null' : 'must be an integer') })
    .int('must be an integer')
    .min(0, 'must be a non-negative integer')
    .max(QUALIFIER_ORDER_MAX, `must be at most ${QUALIFIER_ORDER_MAX}`);

export const QualifierInputSchema = z
  .object({
    key: nonBlankText().openapi({ example: '10' }),
    description: nonBlankText('description').openapi({ example: 'Batch or lot number' }),
    validationPattern: pattern().openapi({ example: '^[A-Za-z0-9]{1,20}$' }),
    order: order().optional().openapi({ description: 'Ascending precedence for URI resolution, default 0', example: 1 }),
  })
  .openapi('QualifierInput');

/** A scheme's full qualifier set: keys unique within the array (the 400 names the repeat). */
const qualifierSet = () =>
  z.array(QualifierInputSchema, { error: (i) => (i.input === null ? 'must not be null' : 'must be an array') }).superRefine(
    (qualifiers, ctx) => {
      const firstAt = new Map<string, number>();
      qualifiers.forEach((q, index) => {
        const earlier = firstAt.get(q.key);
        if (earlier === undefined) firstAt.set(q.key, index);
        else ctx.addIssue({ code: 'custom', path: [index, 'key'], message: `duplicates qualifiers[${earlier}].key` });
      });
    },
  );

const schemeFields = {
  name: nonBlankText().openapi({ example: 'Global Trade Item Number' }),
  primaryKey: nonBlankText().openapi({ example: '01', description: 'Key used in URI construction; unique per registrar' }),
  validationPattern: pattern().openapi({ example: '^\\d{14}$' }),
  linkTemplate: nonBlankText().openapi({ example: '/{primaryKey}/{value}', description: 'ISO 18975 link template' }),
};

export const CreateSchemeBody = z
  .object({
    registrarId: idText().openapi({ description: "The tenant's own or a system registrar" }),
    ...schemeFields,
    idrServiceInstanceId: idText().optional().openapi({ description: "The tenant's own or a system IDR instance" }),
    qualifiers: qualifierSet().optional(),
  })
  .openapi('CreateIdentifierScheme');

export const UpdateSchemeBody = z
  .object({
    name: schemeFields.name.optional(),
    primaryKey: schemeFields.primaryKey.optional(),
    validationPattern: schemeFields.validationPattern.optional(),
    linkTemplate: schemeFields.linkTemplate.optional(),
    idrServiceInstanceId: idText().nullable().optional().openapi({ description: 'null clears it' }),
    qualifiers: qualifierSet().optional().openapi({ description: 'Replaces the whole set; [] removes every qualifier' }),
  })
  .openapi('UpdateIdentifierScheme');

export const SchemeIdParam = z.object({
  id: text().openapi({ param: { name: 'id', in: 'path' }, example: 'cq8w1x2y3z0000abcdefghijk' }),
});

const iso = (date: Date) => date.toISOString();

type QualifierRow = { id: string; key: string; description: string; validationPattern: string; order: number };
type SchemeWithQualifiers = SchemeRow & { qualifiers: QualifierRow[] };
type SchemeWithRegistrar = NonNullable<Awaited<ReturnType<typeof findScheme>>>;

/** A list item: the scheme with its qualifiers, without the registrar object. */
export const toSchemeResponse = (row: SchemeWithQualifiers): z.infer<typeof SchemeSchema> => ({
  id: row.id,
  registrarId: row.registrarId,
  name: row.name,
  primaryKey: row.primaryKey,
  validationPattern: row.validationPattern,
  linkTemplate: row.linkTemplate,
  idrServiceInstanceId: row.idrServiceInstanceId,
  ...ownershipFlag(row),
  qualifiers: row.qualifiers.map(({ id, key, description, validationPattern, order }) => ({
    id,
    key,
    description,
    validationPattern,
    order,
  })),
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

/** Single, create and update responses: the scheme with its qualifiers and its registrar. */
export const toSchemeWithRegistrarResponse = (row: SchemeWithRegistrar): z.infer<typeof SchemeWithRegistrarSchema> => ({
  ...toSchemeResponse(row),
  registrar: toRegistrarResponse(row.registrar),
});
