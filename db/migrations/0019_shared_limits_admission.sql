-- The shared request limits (0017) as SQL functions, so a caller is admitted in one round trip:
-- limits_take_client_token (a client's token bucket), limits_enter_concurrency (a lease on a scope) and
-- limits_admit (both, the lease only for a request the bucket let through). core/limits/ calls them.

-- One request of `p_client` in `p_scope` against `p_per_minute`: a full minute's allowance at first,
-- refilled continuously; reads, refills, takes and writes the bucket under its row lock. `tokens` is
-- what is left (below 1 when refused). One call in 64 also forgets buckets idle for 2 minutes (full again).
CREATE FUNCTION limits_take_client_token(p_scope text, p_client text, p_per_minute float8, OUT tokens float8, OUT granted boolean)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
  per_second float8 := p_per_minute / 60;
BEGIN
  INSERT INTO client_rate_buckets AS b (scope, client, tokens, granted, updated_at)
  VALUES (p_scope, p_client, p_per_minute - 1, true, now())
  ON CONFLICT (scope, client) DO UPDATE SET
    tokens = least(p_per_minute, b.tokens + greatest(0, extract(epoch FROM now() - b.updated_at)) * per_second)
      - CASE WHEN least(p_per_minute, b.tokens + greatest(0, extract(epoch FROM now() - b.updated_at)) * per_second) >= 1 THEN 1 ELSE 0 END,
    granted = least(p_per_minute, b.tokens + greatest(0, extract(epoch FROM now() - b.updated_at)) * per_second) >= 1,
    updated_at = now()
  RETURNING b.tokens, b.granted INTO tokens, granted;
  IF random() * 64 < 1 THEN
    DELETE FROM client_rate_buckets WHERE updated_at < now() - interval '2 minutes';
  END IF;
END $$;
--> statement-breakpoint
-- A lease on `p_scope` for `p_lease_seconds` when fewer than `p_limit` unexpired ones are held, else null.
-- The scope's transaction-scoped advisory lock is taken first; each later statement of this (volatile)
-- function takes a fresh snapshot, so the count sees every lease committed before the lock was granted.
-- Expired leases (of a holder that died) are cleared on the way.
CREATE FUNCTION limits_enter_concurrency(p_scope text, p_limit integer, p_lease_seconds float8)
RETURNS uuid LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  lease uuid;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('concurrency:' || p_scope));
  DELETE FROM concurrency_leases WHERE scope = p_scope AND expires_at <= now();
  INSERT INTO concurrency_leases (scope, expires_at)
  SELECT p_scope, now() + p_lease_seconds * interval '1 second'
  WHERE (SELECT count(*) FROM concurrency_leases WHERE scope = p_scope AND expires_at > now()) < p_limit
  RETURNING id INTO lease;
  RETURN lease;
END $$;
--> statement-breakpoint
-- A request's admission: its client's token first (every request counts), then, only when granted, a lease.
CREATE FUNCTION limits_admit(
  p_rate_scope text, p_client text, p_per_minute float8,
  p_lease_scope text, p_limit integer, p_lease_seconds float8,
  OUT tokens float8, OUT granted boolean, OUT lease uuid)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  SELECT t.tokens, t.granted INTO tokens, granted FROM limits_take_client_token(p_rate_scope, p_client, p_per_minute) t;
  IF granted THEN
    lease := limits_enter_concurrency(p_lease_scope, p_limit, p_lease_seconds);
  END IF;
END $$;
