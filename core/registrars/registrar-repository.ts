import { and, asc, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { identifiers, identifierSchemes, registrars, schemeQualifiers } from '../../db/schema/index.ts';
import { isForeignKeyViolation } from '../db-errors.ts';
import { conflict, notFound } from '../errors.ts';
import { assertUsableServiceInstance } from '../service-instances/visible-instance.ts';
import { assertWritable, visibleTo } from '../tenancy/visibility.ts';

export type RegistrarRow = typeof registrars.$inferSelect;
export interface RegistrarInput {
  name: string;
  namespace: string;
  url: string;
  idrServiceInstanceId?: string | null;
}

const IDR_FIELD = 'idrServiceInstanceId';

/** The tenant's registrars plus system defaults, newest first. */
export const listRegistrars = async (db: Database, tenantId: string, page: { limit: number; offset: number }) => {
  const rows = await db
    .select({ ...getTableColumns(registrars), total: sql<number>`count(*) over()`.mapWith(Number) })
    .from(registrars)
    .where(visibleTo(registrars.tenantId, tenantId))
    .orderBy(desc(registrars.createdAt), desc(registrars.id))
    .limit(page.limit)
    .offset(page.offset);
  if (rows.length > 0) return { rows, total: rows[0]!.total };
  const [count] = await db
    .select({ total: sql<number>`count(*)`.mapWith(Number) })
    .from(registrars)
    .where(visibleTo(registrars.tenantId, tenantId));
  return { rows, total: count?.total ?? 0 };
};

/** One visible registrar with the schemes (and their qualifiers) the tenant can see; one query. */
export const findRegistrarWithSchemes = (db: Database, tenantId: string, id: string) =>
  db.query.registrars.findFirst({
    where: and(eq(registrars.id, id), visibleTo(registrars.tenantId, tenantId)),
    with: {
      schemes: {
        where: visibleTo(identifierSchemes.tenantId, tenantId),
        orderBy: [asc(identifierSchemes.createdAt), asc(identifierSchemes.id)],
        with: { qualifiers: { orderBy: [asc(schemeQualifiers.order), asc(schemeQualifiers.key)] } },
      },
    },
  });

export const createRegistrar = async (db: Database, tenantId: string, input: RegistrarInput) => {
  if (input.idrServiceInstanceId) {
    await assertUsableServiceInstance(db, tenantId, input.idrServiceInstanceId, 'IDR', IDR_FIELD);
  }
  const [row] = await db.insert(registrars).values({ ...input, tenantId }).returning();
  return row!;
};

const loadWritable = async (db: Database, tenantId: string, id: string) => {
  const [row] = await db
    .select()
    .from(registrars)
    .where(and(eq(registrars.id, id), visibleTo(registrars.tenantId, tenantId)));
  return assertWritable(row, tenantId, 'Registrar');
};

export const updateRegistrar = async (db: Database, tenantId: string, id: string, patch: Partial<RegistrarInput>) => {
  await loadWritable(db, tenantId, id);
  if (patch.idrServiceInstanceId) {
    await assertUsableServiceInstance(db, tenantId, patch.idrServiceInstanceId, 'IDR', IDR_FIELD);
  }
  const [row] = await db
    .update(registrars)
    .set(patch)
    .where(and(eq(registrars.id, id), eq(registrars.tenantId, tenantId)))
    .returning();
  if (!row) throw notFound('Registrar');
  return row;
};

/** Cascades to schemes and qualifiers; refused (nothing removed) while any scheme has identifiers. */
export const deleteRegistrar = async (db: Database, tenantId: string, id: string): Promise<void> => {
  await loadWritable(db, tenantId, id);
  try {
    await db.transaction(async (tx) => {
      const [inUse] = await tx
        .select({ id: identifiers.id })
        .from(identifiers)
        .innerJoin(identifierSchemes, eq(identifierSchemes.id, identifiers.schemeId))
        .where(eq(identifierSchemes.registrarId, id))
        .limit(1);
      if (inUse) throw registrarInUse();
      await tx.delete(registrars).where(and(eq(registrars.id, id), eq(registrars.tenantId, tenantId)));
    });
  } catch (error) {
    // An identifier created concurrently is caught by the RESTRICT foreign key.
    if (isForeignKeyViolation(error)) throw registrarInUse();
    throw error;
  }
};

const registrarInUse = () =>
  conflict('Registrar cannot be deleted while identifiers exist under its schemes', 'REGISTRAR_IN_USE');
