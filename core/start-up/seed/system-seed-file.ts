import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import * as z from 'zod';
import { ConfigError } from '../../errors.ts';
import { publicUrlProblem } from '../../net/public-url.ts';
import { compilesAsRegExp, PATTERN_MESSAGE, QUALIFIER_ORDER_MAX } from '../../schemes/patterns.ts';
import { issuePath } from '../../validation/issue-path.ts';

/**
 * The operator seed file (setting SYSTEM_SEED_FILE): system registrars with their identifier schemes
 * and qualifiers, upserted by their stable ids at every start. The same field rules as the API apply;
 * unknown keys are refused so a typo fails boot instead of being ignored. Format documented in README.
 */
const id = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 characters of A-Z, a-z, 0-9, "_" or "-"');
const nonBlank = z.string().refine((v) => v.trim().length > 0, 'must contain a non-whitespace character');
const pattern = z.string().min(1, 'must not be empty').refine(compilesAsRegExp, PATTERN_MESSAGE);
const httpUrl = z
  .string()
  .refine((v) => v === v.trim(), 'must not have leading or trailing whitespace')
  .refine((v) => publicUrlProblem(v, true) === undefined, 'must be an absolute http(s) URL without credentials');

/** Adds an issue at `[index, field]` for every repeat of a field's value within an array. */
const uniqueBy =
  <T>(field: keyof T & string, what: string) =>
  (items: T[], ctx: z.RefinementCtx) => {
    const firstAt = new Map<unknown, number>();
    items.forEach((item, index) => {
      const earlier = firstAt.get(item[field]);
      if (earlier === undefined) firstAt.set(item[field], index);
      else ctx.addIssue({ code: 'custom', path: [index, field], message: `repeats the ${what} of [${earlier}]` });
    });
  };

const qualifier = z.strictObject({
  id,
  key: nonBlank,
  description: nonBlank,
  validationPattern: pattern,
  order: z.number().int('must be an integer').min(0, 'must not be negative').max(QUALIFIER_ORDER_MAX).default(0),
});

const scheme = z.strictObject({
  id,
  name: nonBlank,
  primaryKey: nonBlank,
  validationPattern: pattern,
  linkTemplate: nonBlank,
  idrServiceInstanceId: id.optional(),
  qualifiers: z.array(qualifier).superRefine(uniqueBy('key', 'key')).default([]),
});

const registrar = z.strictObject({
  id,
  name: nonBlank,
  namespace: nonBlank,
  url: httpUrl,
  idrServiceInstanceId: id.optional(),
  identifierSchemes: z.array(scheme).superRefine(uniqueBy('primaryKey', 'primaryKey')).default([]),
});

export const systemSeedSchema = z
  .strictObject({
    registrars: z.array(registrar),
    /** UNTP ConformityScheme documents for the system conformity catalogue: files (relative to this file) or URLs. */
    conformitySchemes: z
      .array(z.union([z.strictObject({ file: nonBlank }), z.strictObject({ url: httpUrl })], { error: 'must be { "file": path } or { "url": URL }' }))
      .default([]),
  })
  .superRefine((seed, ctx) => {
    // Ids are unique per kind across the whole file (they are primary keys).
    const seen = new Map<string, string>();
    const claim = (kind: string, value: string, path: (string | number)[]) => {
      const earlier = seen.get(`${kind}:${value}`);
      if (earlier) ctx.addIssue({ code: 'custom', path, message: `repeats the ${kind} id of ${earlier}` });
      else seen.set(`${kind}:${value}`, issuePath(path));
    };
    seed.registrars.forEach((r, ri) => {
      claim('registrar', r.id, ['registrars', ri, 'id']);
      r.identifierSchemes.forEach((s, si) => {
        const schemePath = ['registrars', ri, 'identifierSchemes', si];
        claim('scheme', s.id, [...schemePath, 'id']);
        s.qualifiers.forEach((q, qi) => claim('qualifier', q.id, [...schemePath, 'qualifiers', qi, 'id']));
      });
    });
  });

export type SystemSeed = z.infer<typeof systemSeedSchema>;

/** The one-line boot failure for anything wrong with the seed file. */
export const seedFileError = (path: string, problem: string) =>
  new ConfigError(`SYSTEM_SEED_FILE ${path}: ${problem.replace(/\s+/g, ' ').trim()}`, 'SYSTEM_SEED_INVALID');

/** Reads and validates the seed file; every problem is a ConfigError naming the path and the field. */
export const readSystemSeedFile = async (path: string): Promise<SystemSeed> => {
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch (error) {
    throw seedFileError(path, `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw seedFileError(path, `is not valid JSON (${(error as Error).message})`);
  }
  const parsed = await systemSeedSchema.safeParseAsync(json);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    throw seedFileError(path, `${issuePath(issue!.path) || 'file'}: ${issue!.message}`);
  }
  const base = dirname(path);
  return {
    ...parsed.data,
    conformitySchemes: parsed.data.conformitySchemes.map((s) => ('file' in s ? { file: resolve(base, s.file) } : s)),
  };
};
