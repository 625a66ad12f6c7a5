-- What this service did for a caller's correlation id (x-correlation-id sent by the main API):
-- each signature made and each status entry minted, so an operator can tell whether a batch item
-- whose outcome is unknown was signed, and which status entries no record owns.
create table if not exists vc_service.correlated_events (
  id bigserial primary key,
  correlation_id text not null,
  kind text not null check (kind in ('signature', 'status-entry')),
  issuer text not null,
  -- signature: the credential's id (when it has one) and the SHA-256 (hex) of the signed payload
  credential_id text,
  payload_digest text,
  -- status-entry: the entry's id (<list url>#<index>)
  status_entry text,
  created_at timestamptz not null default now()
);
create index if not exists correlated_events_correlation on vc_service.correlated_events (correlation_id, id);
create index if not exists correlated_events_kind on vc_service.correlated_events (kind, id);
