/** At most `limit` holders at once in this process; a caller that finds it full is refused at once, never queued. */
export class ConcurrencyGate {
  private active = 0;

  constructor(private readonly limit: number) {}

  tryEnter(): boolean {
    if (this.active >= this.limit) return false;
    this.active++;
    return true;
  }

  leave(): void {
    this.active = Math.max(0, this.active - 1);
  }
}
