import { eq, or, type AnyColumn, type Placeholder, type SQL } from 'drizzle-orm';
import { SYSTEM_TENANT_ID } from '../../db/system-tenant.ts';
import { forbidden, notFound } from '../errors.ts';

/** A record is visible to its own tenant and, when system-owned, to every tenant. */
export const visibleTo = (tenantColumn: AnyColumn, tenantId: string | Placeholder): SQL =>
  or(eq(tenantColumn, tenantId), eq(tenantColumn, SYSTEM_TENANT_ID)) as SQL;

export const isSystemOwned = (record: { tenantId: string }): boolean => record.tenantId === SYSTEM_TENANT_ID;

/**
 * Write guard for a record already loaded with `visibleTo`: missing or foreign is a 404 (the same
 * answer, so ids of other tenants reveal nothing); a visible system default is read-only (403).
 */
export const assertWritable = <T extends { tenantId: string }>(
  record: T | undefined,
  tenantId: string,
  what: string,
): T => {
  if (!record || (record.tenantId !== tenantId && !isSystemOwned(record))) throw notFound(what);
  if (record.tenantId !== tenantId) {
    throw forbidden(`${what} is a system default and cannot be changed`, 'SYSTEM_DEFAULT_READ_ONLY');
  }
  return record;
};

/** Shape every visible record takes in responses: tenant ownership as a flag, not a tenant id. */
export const ownershipFlag = (record: { tenantId: string }) => ({ isSystemDefault: isSystemOwned(record) });
