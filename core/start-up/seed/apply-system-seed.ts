import { and, eq, inArray, ne, not, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { ConfigError } from '../../errors.ts';
import { isUniqueViolation } from '../../db-errors.ts';
import type { Queryable } from '../../../db/client.ts';
import { identifierSchemes, registrars, schemeQualifiers, serviceInstances } from '../../../db/schema/index.ts';
import { SYSTEM_TENANT_ID } from '../../../db/system-tenant.ts';
import type { SystemSeed } from './system-seed-file.ts';

type Fail = (problem: string) => ConfigError;

/** `(row columns) is distinct from (proposed columns)`: an upsert that changes nothing writes nothing. */
const changed = (columns: PgColumn[]): SQL =>
  sql`(${sql.join(columns, sql`, `)}) is distinct from (${sql.join(
    columns.map((c) => sql`excluded.${sql.identifier(c.name)}`),
    sql`, `,
  )})`;

const excluded = (columns: Record<string, PgColumn>) =>
  Object.fromEntries(Object.entries(columns).map(([key, c]) => [key, sql`excluded.${sql.identifier(c.name)}`]));

/**
 * Upserts the seed's registrars, schemes and qualifiers by id as system defaults (run inside the
 * start-up transaction, after the system tenant and service instances exist).
 *
 * - Rows whose fields already equal the file are not touched (updatedAt stays), so boots are idempotent.
 * - Registrars and schemes that are no longer in the file are left alone: tenants' schemes and
 *   identifiers may reference them. A seeded scheme's qualifiers are exactly the file's: the others go
 *   (nothing references a qualifier).
 * - An id already used by a tenant's record, or a primaryKey a tenant's scheme already holds under a
 *   system registrar, fails boot rather than overwrite tenant data.
 */
export const applySystemSeed = async (db: Queryable, seed: SystemSeed, fail: Fail): Promise<void> => {
  await assertSystemIdrInstances(db, seed, fail);
  for (const [ri, { identifierSchemes: schemes, ...registrar }] of seed.registrars.entries()) {
    await upsertRegistrar(db, registrar, `registrars[${ri}]`, fail);
    for (const [si, { qualifiers: _, ...scheme }] of schemes.entries()) {
      await upsertScheme(db, { ...scheme, registrarId: registrar.id }, `registrars[${ri}].identifierSchemes[${si}]`, fail);
    }
  }
  // Stale qualifiers go first, so a key may move from one qualifier id to another in one boot.
  const seededSchemes = seed.registrars.flatMap((r) => r.identifierSchemes);
  for (const scheme of seededSchemes) await removeOtherQualifiers(db, scheme);
  for (const [ri, registrar] of seed.registrars.entries()) {
    for (const [si, scheme] of registrar.identifierSchemes.entries()) {
      for (const [qi, qualifier] of scheme.qualifiers.entries()) {
        const at = `registrars[${ri}].identifierSchemes[${si}].qualifiers[${qi}]`;
        await upsertQualifier(db, { ...qualifier, schemeId: scheme.id }, at, fail);
      }
    }
  }
};

const assertSystemIdrInstances = async (db: Queryable, seed: SystemSeed, fail: Fail) => {
  const references = seed.registrars.flatMap((r, ri) => [
    { id: r.idrServiceInstanceId, at: `registrars[${ri}]` },
    ...r.identifierSchemes.map((s, si) => ({ id: s.idrServiceInstanceId, at: `registrars[${ri}].identifierSchemes[${si}]` })),
  ]);
  const wanted = references.filter((r): r is { id: string; at: string } => r.id !== undefined);
  if (wanted.length === 0) return;
  const found = await db
    .select({ id: serviceInstances.id })
    .from(serviceInstances)
    .where(
      and(
        inArray(serviceInstances.id, wanted.map((r) => r.id)),
        eq(serviceInstances.tenantId, SYSTEM_TENANT_ID),
        eq(serviceInstances.serviceType, 'IDR'),
      ),
    );
  const missing = wanted.find((r) => !found.some((f) => f.id === r.id));
  if (missing) throw fail(`${missing.at}.idrServiceInstanceId: "${missing.id}" is not a system IDR service instance`);
};

const upsertRegistrar = async (
  db: Queryable,
  input: { id: string; name: string; namespace: string; url: string; idrServiceInstanceId?: string },
  at: string,
  fail: Fail,
) => {
  const fields = {
    name: registrars.name,
    namespace: registrars.namespace,
    url: registrars.url,
    idrServiceInstanceId: registrars.idrServiceInstanceId,
  };
  const [row] = await db
    .insert(registrars)
    .values({ ...input, idrServiceInstanceId: input.idrServiceInstanceId ?? null, tenantId: SYSTEM_TENANT_ID })
    .onConflictDoUpdate({
      target: registrars.id,
      set: excluded(fields),
      setWhere: and(eq(registrars.tenantId, SYSTEM_TENANT_ID), changed(Object.values(fields))),
    })
    .returning({ id: registrars.id });
  if (row) return;
  const [existing] = await db.select({ tenantId: registrars.tenantId }).from(registrars).where(eq(registrars.id, input.id));
  if (existing?.tenantId !== SYSTEM_TENANT_ID) throw fail(`${at}.id: "${input.id}" is already the id of a tenant's registrar`);
};

const upsertScheme = async (
  db: Queryable,
  input: {
    id: string;
    registrarId: string;
    name: string;
    primaryKey: string;
    validationPattern: string;
    linkTemplate: string;
    idrServiceInstanceId?: string;
  },
  at: string,
  fail: Fail,
) => {
  const fields = {
    registrarId: identifierSchemes.registrarId,
    name: identifierSchemes.name,
    primaryKey: identifierSchemes.primaryKey,
    validationPattern: identifierSchemes.validationPattern,
    linkTemplate: identifierSchemes.linkTemplate,
    idrServiceInstanceId: identifierSchemes.idrServiceInstanceId,
  };
  // Any tenant's scheme holding this primaryKey under the registrar blocks the seed (tenants may not
  // share a primaryKey with a system scheme of the same registrar).
  const [holder] = await db
    .select({ id: identifierSchemes.id })
    .from(identifierSchemes)
    .where(and(eq(identifierSchemes.registrarId, input.registrarId), eq(identifierSchemes.primaryKey, input.primaryKey), ne(identifierSchemes.id, input.id)))
    .limit(1);
  if (holder) throw fail(`${at}.primaryKey: "${input.primaryKey}" is already used by another scheme of registrar "${input.registrarId}"`);
  let row: { id: string } | undefined;
  try {
    [row] = await db
      .insert(identifierSchemes)
      .values({ ...input, idrServiceInstanceId: input.idrServiceInstanceId ?? null, tenantId: SYSTEM_TENANT_ID })
      .onConflictDoUpdate({
        target: identifierSchemes.id,
        set: excluded(fields),
        setWhere: and(eq(identifierSchemes.tenantId, SYSTEM_TENANT_ID), changed(Object.values(fields))),
      })
      .returning({ id: identifierSchemes.id });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw fail(`${at}.primaryKey: "${input.primaryKey}" is already used by another scheme of registrar "${input.registrarId}"`);
  }
  if (row) return;
  const [existing] = await db
    .select({ tenantId: identifierSchemes.tenantId })
    .from(identifierSchemes)
    .where(eq(identifierSchemes.id, input.id));
  if (existing?.tenantId !== SYSTEM_TENANT_ID) throw fail(`${at}.id: "${input.id}" is already the id of a tenant's scheme`);
};

/** Deletes the qualifiers of a seeded system scheme that the file does not list with the same id and key. */
const removeOtherQualifiers = async (
  db: Queryable,
  scheme: { id: string; qualifiers: { id: string; key: string }[] },
) => {
  const listed = or(...scheme.qualifiers.map((q) => and(eq(schemeQualifiers.id, q.id), eq(schemeQualifiers.key, q.key))));
  const systemScheme = db
    .select({ id: identifierSchemes.id })
    .from(identifierSchemes)
    .where(and(eq(identifierSchemes.id, scheme.id), eq(identifierSchemes.tenantId, SYSTEM_TENANT_ID)));
  await db
    .delete(schemeQualifiers)
    .where(and(inArray(schemeQualifiers.schemeId, systemScheme), listed ? not(listed) : undefined));
};

const upsertQualifier = async (
  db: Queryable,
  input: { id: string; schemeId: string; key: string; description: string; validationPattern: string; order: number },
  at: string,
  fail: Fail,
) => {
  const fields = {
    description: schemeQualifiers.description,
    validationPattern: schemeQualifiers.validationPattern,
    order: schemeQualifiers.order,
  };
  const [row] = await db
    .insert(schemeQualifiers)
    .values(input)
    .onConflictDoUpdate({
      target: schemeQualifiers.id,
      set: excluded(fields),
      setWhere: and(eq(schemeQualifiers.schemeId, input.schemeId), changed(Object.values(fields))),
    })
    .returning({ id: schemeQualifiers.id });
  if (row) return;
  const [existing] = await db
    .select({ schemeId: schemeQualifiers.schemeId })
    .from(schemeQualifiers)
    .where(eq(schemeQualifiers.id, input.id));
  if (existing?.schemeId !== input.schemeId) {
    throw fail(`${at}.id: "${input.id}" is already the id of a qualifier of another scheme`);
  }
};
