/** Clients remembered at most: the least recently seen is forgotten first (it gets a full allowance back). */
const MAX_CLIENTS = 100_000;

/**
 * Requests per client per minute, as a token bucket: a full minute's allowance at first, refilled
 * continuously, so a steady client at the limit is never refused and a burst is.
 */
export class ClientRateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly perMs: number;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {
    this.perMs = perMinute / 60_000;
  }

  /** Counts one request: 0 when it may proceed, else the whole seconds until the client may try again. */
  take(client: string): number {
    const now = this.now();
    const known = this.buckets.get(client);
    const bucket = known
      ? { tokens: Math.min(this.perMinute, known.tokens + (now - known.at) * this.perMs), at: now }
      : { tokens: this.perMinute, at: now };
    // Re-inserted so the map's order is least recently seen first.
    this.buckets.delete(client);
    this.buckets.set(client, bucket);
    if (this.buckets.size > MAX_CLIENTS) this.buckets.delete(this.buckets.keys().next().value!);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.perMs / 1000));
  }
}
