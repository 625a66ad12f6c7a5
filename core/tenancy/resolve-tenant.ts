import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { tenants, users } from '../../db/schema/index.ts';
import { createId } from '../ids.ts';

export interface PrincipalClaims {
  subject: string;
  name?: string;
  email?: string;
}

export interface ResolvedPrincipal {
  userId: string;
  tenantId: string;
}

/**
 * Open mode: a principal seen for the first time gets a tenant of its own; later it keeps it.
 * Race-safe: two first requests of one subject end with one user and one tenant.
 */
export const resolveOpenModeTenant = async (db: Database, claims: PrincipalClaims): Promise<ResolvedPrincipal> => {
  const [known] = await db
    .select({ userId: users.id, tenantId: users.tenantId })
    .from(users)
    .where(eq(users.subject, claims.subject));
  if (known) return known;
  return db.transaction(async (tx) => {
    const tenantId = createId();
    await tx.insert(tenants).values({ id: tenantId, name: claims.name ?? claims.email ?? claims.subject });
    const [created] = await tx
      .insert(users)
      .values({ subject: claims.subject, tenantId, name: claims.name, email: claims.email })
      .onConflictDoNothing({ target: users.subject })
      .returning({ userId: users.id, tenantId: users.tenantId });
    if (created) return created;
    // Another request provisioned this subject first: drop our tenant, use theirs.
    await tx.delete(tenants).where(eq(tenants.id, tenantId));
    const [winner] = await tx
      .select({ userId: users.id, tenantId: users.tenantId })
      .from(users)
      .where(eq(users.subject, claims.subject));
    return winner!;
  });
};

/** Closed mode: the IDP group names the tenant; the user follows its group when that changes. */
export const resolveClosedModeTenant = async (
  db: Database,
  claims: PrincipalClaims,
  group: string,
): Promise<ResolvedPrincipal> => {
  await db.insert(tenants).values({ name: group, externalGroupId: group }).onConflictDoNothing({ target: tenants.externalGroupId });
  const [tenant] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.externalGroupId, group));
  const [user] = await db
    .insert(users)
    .values({ subject: claims.subject, tenantId: tenant!.id, name: claims.name, email: claims.email })
    .onConflictDoUpdate({ target: users.subject, set: { tenantId: tenant!.id } })
    .returning({ userId: users.id, tenantId: users.tenantId });
  return user!;
};
