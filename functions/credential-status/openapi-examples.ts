import type * as z from 'zod';
import type { ReconcileBody, SetStatusBody, StatusChangeSchema, StatusEntrySchema } from './schemas.ts';

/** The OpenAPI document's examples of status changes (test/openapi/examples.test.ts checks them against the schemas). */

export const setStatusExample: z.input<typeof SetStatusBody> = { value: true };

export const statusChangeExample: z.input<typeof StatusChangeSchema> = {
  entryId: 'ym3x18of8wlkrh4zdtrafrg2',
  statusPurpose: 'revocation',
  value: true,
  observedAt: '2026-11-28T11:51:53.327Z',
  version: 2,
};

export const reconcileExample: z.input<typeof ReconcileBody> = { acceptProviderChange: true };

export const reconciledEntryExample: z.input<typeof StatusEntrySchema> = {
  entryId: 'ym3x18of8wlkrh4zdtrafrg2',
  statusPurpose: 'revocation',
  value: true,
  observedAt: '2026-11-28T11:51:53.385Z',
  valueChangedAt: '2026-11-28T11:51:53.327Z',
  version: 3,
  pending: null,
};
