import '@hono/zod-openapi';
import * as z from 'zod';
import { patternProblem, QUALIFIER_ORDER_MAX } from '../../core/schemes/patterns.ts';
import { idText, nonBlankText, text } from '../platform/fields.ts';

/** A regular expression source: required, compiles in RE2 syntax (the 400 says why not); whitespace-only is accepted. */
const pattern = () =>
  text('pattern')
    .min(1, 'must not be empty')
    // Async: RE2 is loaded on first use (core/schemes/patterns.ts), so these schemas are parsed with parseAsync.
    .superRefine(async (value, ctx) => {
      const problem = await patternProblem(value);
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
