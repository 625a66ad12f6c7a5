import '@hono/zod-openapi';
import * as z from 'zod';
import type { changeResult } from '../../core/credential-status/change-status.ts';
import { STATUS_ERRORS, type StatusErrorCode } from '../../core/credential-status/status-errors.ts';
import type { entryView, StatusView } from '../../core/credential-status/status-view.ts';
import { bool, text } from '../platform/fields.ts';
import { booleanFilter } from '../platform/filters.ts';
import { ErrorResponseSchema } from '../platform/openapi-responses.ts';

export const CredentialIdParam = z.object({
  id: text('id').openapi({ param: { name: 'id', in: 'path' }, example: 'ckv9x2l0k0000qzrm8d1b2c3d' }),
});

export const PurposeParams = CredentialIdParam.extend({
  purpose: text('id').openapi({ param: { name: 'purpose', in: 'path' }, example: 'revocation', description: '`revocation` or `suspension`' }),
});

export const FreshQuery = z.object({
  fresh: booleanFilter().openapi({ description: '`true` also reads every entry from the VC service (`observed`, `failures`)' }),
});

export const SetStatusBody = z.object({ value: bool().openapi({ description: 'The bit to set: true revokes or suspends' }) }).openapi('SetCredentialStatus');

export const ReconcileBody = z
  .object({
    acceptProviderChange: bool()
      .optional()
      .openapi({
        description: "true: record what the instance's current VC service shows even though the pending operation was sent to another (otherwise 409 STATUS_PROVIDER_CHANGED)",
      }),
  })
  .openapi('ReconcileCredentialStatus');

const timestamp = () => z.string().nullable().openapi({ format: 'date-time' });

export const StatusEntrySchema = z
  .object({
    entryId: z.string(),
    statusPurpose: z.string(),
    value: z.boolean().nullable().openapi({ description: 'The last bit observed; null before any observation' }),
    observedAt: timestamp(),
    valueChangedAt: timestamp(),
    version: z.number().int().openapi({ description: 'Send it as If-Version to change or reconcile the entry' }),
    pending: z
      .object({ value: z.boolean().nullable(), since: timestamp(), deadline: timestamp() })
      .nullable()
      .openapi({ description: 'The operation in flight, or one that was interrupted (reconcile it after deadline + grace)' }),
  })
  .openapi('CredentialStatusEntry');

export const StatusViewSchema = z
  .object({
    capture: z.enum(['CAPTURED', 'FAILED', 'NONE']),
    statusCaptureError: z.string().nullable(),
    attribution: z.object({ instanceId: z.string(), source: z.string(), at: timestamp() }).nullable(),
    entries: z.array(StatusEntrySchema),
    observed: z.array(z.object({ entryId: z.string(), statusPurpose: z.string(), value: z.boolean(), observedAt: timestamp() })).optional(),
    failures: z.array(z.object({ entryId: z.string(), statusPurpose: z.string(), code: z.string(), message: z.string() })).optional(),
  })
  .openapi('CredentialStatus');

export const StatusChangeSchema = z
  .object({ entryId: z.string(), statusPurpose: z.string(), value: z.boolean().nullable(), observedAt: timestamp(), version: z.number().int() })
  .openapi('CredentialStatusChange');

/** OpenAPI error responses of a status route: each status lists the stable codes it can carry. */
export const statusErrorResponses = (codes: (StatusErrorCode | [number, string])[]) => {
  const byStatus = new Map<number, string[]>();
  for (const code of codes) {
    const [status, name] = Array.isArray(code) ? code : [STATUS_ERRORS[code][0], code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), name]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      status,
      { description: list.map((c) => `\`${c}\``).join(', '), content: { 'application/json': { schema: ErrorResponseSchema } } },
    ]),
  );
};

/** Codes every status route can answer besides the shared 401 and 500 (`pick`). */
export const COMMON_ERRORS: [number, string][] = [
  [400, 'VALIDATION_FAILED'],
  [404, 'NOT_FOUND'],
];

/** Codes both entry writes (PUT …/{purpose} and POST …/reconcile) can answer; each route adds its own. */
export const ENTRY_WRITE_ERRORS: (StatusErrorCode | [number, string])[] = [
  ...COMMON_ERRORS,
  [400, 'INVALID_IF_VERSION'],
  'STATUS_PURPOSE_UNSUPPORTED',
  'EXTERNAL_CREDENTIAL_STATUS_NOT_MANAGEABLE',
  'STATUS_ENTRY_NOT_FOUND',
  'VERSION_CONFLICT',
  'STATUS_OPERATION_IN_PROGRESS',
  'STATUS_METADATA_UNAVAILABLE',
  'STATUS_ENTRY_UNSUPPORTED',
  'VC_REJECTED',
  'VC_SERVICE_UNAVAILABLE',
  'VC_STATUS_RESPONSE_INVALID',
];

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

type EntryRow = ReturnType<typeof entryView>;
export const toEntryResponse = (e: EntryRow): z.infer<typeof StatusEntrySchema> => ({
  ...e,
  observedAt: iso(e.observedAt),
  valueChangedAt: iso(e.valueChangedAt),
  pending: e.pending ? { value: e.pending.value, since: iso(e.pending.since), deadline: iso(e.pending.deadline) } : null,
});

export const toViewResponse = (v: StatusView): z.infer<typeof StatusViewSchema> => ({
  capture: v.capture,
  statusCaptureError: v.statusCaptureError,
  attribution: v.attribution ? { ...v.attribution, at: iso(v.attribution.at) } : null,
  entries: v.entries.map(toEntryResponse),
  ...(v.observed && v.failures ? { observed: v.observed.map((o) => ({ ...o, observedAt: iso(o.observedAt) })), failures: v.failures } : {}),
});

export const toChangeResponse = (c: ReturnType<typeof changeResult>): z.infer<typeof StatusChangeSchema> => ({ ...c, observedAt: iso(c.observedAt) });
