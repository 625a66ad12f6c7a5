-- The VC service's own tables, in a schema of their own (never the main API's tables).
create schema if not exists vc_service;

create table if not exists vc_service.identifiers (
  did text primary key,
  alias text not null,
  provider text not null default 'did:web',
  created_at timestamptz not null default now()
);

-- One Ed25519 key per identifier today; private_key is AES-256-GCM ciphertext (iv | tag | data).
create table if not exists vc_service.keys (
  kid text primary key,
  did text not null references vc_service.identifiers (did) on delete cascade,
  public_key_hex text not null,
  private_key bytea not null,
  created_at timestamptz not null default now()
);
create index if not exists keys_did on vc_service.keys (did);

-- A bitstring status list: bits are the raw bitstring (index 0 = the first byte's most significant bit);
-- credential is the signed BitstringStatusListCredential as served, re-signed whenever a bit changes.
create table if not exists vc_service.status_lists (
  id bigserial primary key,
  issuer text not null references vc_service.identifiers (did) on delete cascade,
  purpose text not null,
  length integer not null,
  next_index integer not null default 0,
  bits bytea not null,
  credential text not null,
  etag text not null,
  updated_at timestamptz not null default now(),
  constraint next_index_in_range check (next_index >= 0 and next_index <= length)
);
create index if not exists status_lists_issuer_purpose on vc_service.status_lists (issuer, purpose, id);
