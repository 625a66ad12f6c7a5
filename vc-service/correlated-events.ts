import type postgres from 'postgres';

/** One thing this service did for a caller's correlation id. */
export type CorrelatedEvent =
  | { kind: 'signature'; issuer: string; credentialId: string | null; payloadDigest: string }
  | { kind: 'status-entry'; issuer: string; statusEntry: string };

export interface RecordedEvent {
  kind: CorrelatedEvent['kind'];
  issuer: string;
  credentialId: string | null;
  payloadDigest: string | null;
  statusEntry: string | null;
  createdAt: string;
}

/** Most events one lookup returns (an item makes a handful; a correlation id reused beyond this is not an item's). */
export const MAX_EVENTS_PER_LOOKUP = 50;

const hex = (bytes: ArrayBuffer) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

/** SHA-256 (hex) of a credential's JSON as signed: what the main API compares a stored copy against. */
export const payloadDigest = async (credential: Record<string, unknown>): Promise<string> =>
  hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(credential))));

/**
 * `vc_service.correlated_events`: signatures and status entries recorded under the caller's
 * `x-correlation-id` (only when the caller sent one), and the lookup of one id's events, oldest first.
 */
export const createCorrelatedEvents = (sql: postgres.Sql) => ({
  async record(correlationId: string, event: CorrelatedEvent): Promise<void> {
    const row =
      event.kind === 'signature'
        ? { credentialId: event.credentialId, payloadDigest: event.payloadDigest, statusEntry: null }
        : { credentialId: null, payloadDigest: null, statusEntry: event.statusEntry };
    await sql`insert into vc_service.correlated_events (correlation_id, kind, issuer, credential_id, payload_digest, status_entry)
      values (${correlationId}, ${event.kind}, ${event.issuer}, ${row.credentialId}, ${row.payloadDigest}, ${row.statusEntry})`;
  },

  listStatusEntries: (after: string, limit: number) => listStatusEntries(sql, after, limit),

  async byCorrelation(correlationId: string): Promise<RecordedEvent[]> {
    const rows = await sql<RecordedEvent[]>`
      select kind, issuer, credential_id as "credentialId", payload_digest as "payloadDigest", status_entry as "statusEntry",
             to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createdAt"
      from vc_service.correlated_events where correlation_id = ${correlationId} order by id limit ${MAX_EVENTS_PER_LOOKUP}`;
    return [...rows];
  },
});

/** A status entry recorded under some correlation id, as the orphan sweep pages through them. */
export interface ListedStatusEntry {
  /** The page cursor. */
  id: string;
  correlationId: string;
  issuer: string;
  statusEntry: string;
  createdAt: string;
}

export const MAX_LISTED = 200;

/** Status entries minted under any correlation id, oldest first, after the cursor `after`. */
export const listStatusEntries = async (sql: postgres.Sql, after: string, limit: number): Promise<ListedStatusEntry[]> => [
  ...(await sql<ListedStatusEntry[]>`
    select id::text, correlation_id as "correlationId", issuer, status_entry as "statusEntry",
           to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createdAt"
    from vc_service.correlated_events where kind = 'status-entry' and id > ${after}::bigint order by id limit ${limit}`),
];

export type CorrelatedEvents = ReturnType<typeof createCorrelatedEvents>;
