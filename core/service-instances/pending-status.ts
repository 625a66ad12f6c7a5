import type { Queryable } from '../../db/client.ts';

/**
 * Whether credentials issued through this instance have status operations in flight (a changed config
 * or a delete would strand them). Credential status is not built yet, so nothing is ever pending;
 * the credential status work fills this in, and every caller already honours it.
 */
export const hasPendingStatusOperations = async (_db: Queryable, _instanceId: string): Promise<boolean> => false;
