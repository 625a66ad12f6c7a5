import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { identifiers, identifierSchemes, schemeQualifiers } from '../../db/schema/index.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../db-errors.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { matchesPattern } from '../schemes/patterns.ts';
import { lockUsableScheme, schemeNotFoundAt } from '../schemes/scheme-repository.ts';

export type IdentifierRow = typeof identifiers.$inferSelect;

/** Identifiers are strictly the tenant's own: no system defaults, never another tenant's. */
const ownedBy = (tenantId: string) => eq(identifiers.tenantId, tenantId);

/** The tenant's identifiers, newest first. */
export const listIdentifiers = async (
  db: Database,
  tenantId: string,
  filter: { schemeId?: string },
  page: { limit: number; offset: number },
) => {
  const where = and(
    ownedBy(tenantId),
    filter.schemeId === undefined ? undefined : eq(identifiers.schemeId, filter.schemeId),
  );
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(identifiers)
      .where(where)
      .orderBy(desc(identifiers.createdAt), desc(identifiers.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(identifiers).where(where),
  ]);
  return { rows, total: counted?.total ?? 0 };
};

/** One of the tenant's identifiers with its scheme, the scheme's registrar and qualifiers; one query. */
export const findIdentifier = (db: Database, tenantId: string, id: string) =>
  db.query.identifiers.findFirst({
    where: and(eq(identifiers.id, id), ownedBy(tenantId)),
    with: {
      scheme: {
        with: {
          registrar: true,
          qualifiers: { orderBy: [asc(schemeQualifiers.order), asc(schemeQualifiers.key)] },
        },
      },
    },
  });

/** The value rule of every identifier: it matches its scheme's validationPattern. */
export const assertValueMatchesScheme = async (scheme: { validationPattern: string }, value: string): Promise<void> => {
  if (!(await matchesPattern(scheme.validationPattern, value))) {
    throw badRequest(`value: must match the scheme's validationPattern ${scheme.validationPattern}`);
  }
};

/**
 * Creates an identifier under a scheme the tenant can see. Uniqueness per scheme and tenant is the
 * database's: of concurrent equal requests exactly one inserts, the others get the 409.
 */
export const createIdentifier = async (
  db: Database,
  tenantId: string,
  input: { schemeId: string; value: string },
): Promise<string> => {
  try {
    return await db.transaction(async (tx) => {
      const scheme = await lockUsableScheme(tx, tenantId, input.schemeId, 'schemeId');
      await assertValueMatchesScheme(scheme, input.value);
      const [row] = await tx
        .insert(identifiers)
        .values({ tenantId, schemeId: scheme.id, value: input.value })
        .onConflictDoNothing({ target: [identifiers.schemeId, identifiers.value, identifiers.tenantId] })
        .returning({ id: identifiers.id });
      if (!row) throw identifierExists();
      return row.id;
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) throw schemeNotFoundAt('schemeId');
    throw error;
  }
};

/** Changes the value, re-validated against the scheme's pattern; 409 when the scheme already has it. */
export const updateIdentifierValue = async (db: Database, tenantId: string, id: string, value: string) => {
  try {
    await db.transaction(async (tx) => {
      const [row] = await tx
        .select({ schemeId: identifiers.schemeId })
        .from(identifiers)
        .where(and(eq(identifiers.id, id), ownedBy(tenantId)));
      if (!row) throw notFound('Identifier');
      const [scheme] = await tx
        .select({ validationPattern: identifierSchemes.validationPattern })
        .from(identifierSchemes)
        .where(eq(identifierSchemes.id, row.schemeId))
        .for('share');
      await assertValueMatchesScheme(scheme!, value);
      await tx
        .update(identifiers)
        .set({ value, updatedAt: new Date() })
        .where(and(eq(identifiers.id, id), ownedBy(tenantId)));
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw identifierExists();
    throw error;
  }
};

/**
 * Deletes one of the tenant's identifiers. Records that use it keep existing: organisations,
 * facilities and products lose it as primary identifier (set to null) and as secondary identifier
 * (the link row goes), both by the database's foreign keys.
 */
export const deleteIdentifier = async (db: Database, tenantId: string, id: string): Promise<void> => {
  const deleted = await db
    .delete(identifiers)
    .where(and(eq(identifiers.id, id), ownedBy(tenantId)))
    .returning({ id: identifiers.id });
  if (deleted.length === 0) throw notFound('Identifier');
};

const identifierExists = () =>
  conflict('value: an identifier with this value already exists for the scheme', 'IDENTIFIER_EXISTS');
