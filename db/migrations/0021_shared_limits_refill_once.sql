-- The shared request limits' functions (0019) made plainer, same rules: the token bucket's refill is written
-- once, in limits_refilled_tokens, and limits_take_client_token no longer forgets idle buckets on a request's
-- path (one call in 64 ran an unbounded DELETE there): limits_forget_idle_buckets does it in bounded steps,
-- called by the worker's upkeep on credentials.reconcile-batches (forgetIdleBuckets in core/limits/client-rate-limit.ts).
-- limits_enter_concurrency and limits_admit are unchanged: neither writes the refill nor sweeps buckets.

-- What a bucket holds at `p_now` that held `p_tokens` at `p_updated_at`: refilled continuously at
-- `p_per_minute` a minute, never beyond a full minute's allowance (a clock moved back refills nothing).
-- Plain SQL and immutable (now() comes in as `p_now`), so PostgreSQL inlines it into its caller.
CREATE FUNCTION limits_refilled_tokens(p_tokens float8, p_updated_at timestamptz, p_now timestamptz, p_per_minute float8)
RETURNS float8 LANGUAGE sql IMMUTABLE AS $$
  SELECT least(p_per_minute, p_tokens + greatest(0, extract(epoch FROM p_now - p_updated_at)) * (p_per_minute / 60))
$$;
--> statement-breakpoint
-- One request of `p_client` in `p_scope` against `p_per_minute`: a full minute's allowance at first,
-- refilled continuously; reads, refills, takes and writes the bucket under its row lock. `tokens` is
-- what is left (below 1 when refused). Each call of limits_refilled_tokens is inlined: the statement
-- PostgreSQL runs is the very one 0019 wrote out by hand.
CREATE OR REPLACE FUNCTION limits_take_client_token(p_scope text, p_client text, p_per_minute float8, OUT tokens float8, OUT granted boolean)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
  INSERT INTO client_rate_buckets AS b (scope, client, tokens, granted, updated_at)
  VALUES (p_scope, p_client, p_per_minute - 1, true, now())
  ON CONFLICT (scope, client) DO UPDATE SET
    tokens = limits_refilled_tokens(b.tokens, b.updated_at, now(), p_per_minute)
      - CASE WHEN limits_refilled_tokens(b.tokens, b.updated_at, now(), p_per_minute) >= 1 THEN 1 ELSE 0 END,
    granted = limits_refilled_tokens(b.tokens, b.updated_at, now(), p_per_minute) >= 1,
    updated_at = now()
  RETURNING b.tokens, b.granted INTO tokens, granted;
END $$;
--> statement-breakpoint
-- Forgets at most `p_limit` buckets idle for 2 minutes (a minute refills any bucket, so each is full
-- again: its client's next request starts afresh exactly as it would have found it), oldest first;
-- returns how many. Each step costs its own rows (the updated_at index, then each row by its address),
-- never a scan of the table. A bucket a request holds is skipped, and the idle test is made again under
-- the row lock, so a bucket used meanwhile is kept.
CREATE FUNCTION limits_forget_idle_buckets(p_limit integer) RETURNS integer
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  idle_before timestamptz := now() - interval '2 minutes';
  forgotten integer;
BEGIN
  DELETE FROM client_rate_buckets
  WHERE ctid = ANY (ARRAY(
      SELECT ctid FROM client_rate_buckets WHERE updated_at < idle_before
      ORDER BY updated_at LIMIT p_limit FOR UPDATE SKIP LOCKED))
    AND updated_at < idle_before;
  GET DIAGNOSTICS forgotten = ROW_COUNT;
  RETURN forgotten;
END $$;
