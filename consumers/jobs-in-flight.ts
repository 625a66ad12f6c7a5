/**
 * The jobs this worker is running right now, with their start times: the heartbeat asks whether the
 * newest is still within its time, and shutdown waits for them to drain.
 */
export class JobsInFlight {
  readonly #running = new Map<string, number>();
  #idle: (() => void)[] = [];

  start(jobId: string, now = Date.now()): void {
    this.#running.set(jobId, now);
  }

  end(jobId: string): void {
    this.#running.delete(jobId);
    if (this.#running.size > 0) return;
    for (const wake of this.#idle.splice(0)) wake();
  }

  get count(): number {
    return this.#running.size;
  }

  /** Start of the newest job in flight (ms since epoch), or null when idle. */
  get newestStart(): number | null {
    return this.#running.size === 0 ? null : Math.max(...this.#running.values());
  }

  /** True once no job is running, false if some still are after `withinMs`. */
  whenIdle(withinMs: number): Promise<boolean> {
    if (this.#running.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), withinMs);
      this.#idle.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
