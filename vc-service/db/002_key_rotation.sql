-- Key rotation: which KEY_ENCRYPTION_KEY sealed each private key (its id, a digest of the key; null for keys
-- sealed before ids were stored), so a rotation knows what is left to re-seal and the right key opens each.
alter table vc_service.keys add column if not exists sealing_key_id text;
