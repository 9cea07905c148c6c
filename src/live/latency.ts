/** Width of a bucket of the histogram, ms, and how far it reaches. */
const BUCKET_MS = 0.1;
const BUCKETS = 600_000;

/**
 * How long swaps wait from being taken (on disk, acknowledged) to being applied, over all of
 * them: a histogram of 0.1 ms buckets up to a minute (longer waits count in the last). The
 * lateness holds swaps back by design, so the figure to watch is how far above it the wait goes.
 */
export class LatencyStats {
  private readonly buckets = new Uint32Array(BUCKETS);
  count = 0;
  max = 0;

  readonly add = (ms: number): void => {
    this.buckets[Math.min(BUCKETS - 1, Math.max(0, Math.floor(ms / BUCKET_MS)))]!++;
    this.count++;
    if (ms > this.max) this.max = ms;
  };

  reset(): void {
    this.buckets.fill(0);
    this.count = this.max = 0;
  }

  /** The `p`-th percentile (0 to 100), in ms, to the bucket's upper edge; 0 without samples. */
  percentile(p: number): number {
    if (this.count === 0) return 0;
    const rank = Math.ceil((p / 100) * this.count);
    let seen = 0;
    for (let i = 0; i < BUCKETS; i++) {
      seen += this.buckets[i]!;
      if (seen >= rank) return Math.min(this.max, (i + 1) * BUCKET_MS);
    }
    return this.max;
  }

  /** The figures as the status reports them, rounded to 0.1 ms. */
  summary(): { count: number; p50: number; p99: number; max: number } {
    const round = (ms: number): number => Math.round(ms * 10) / 10;
    return {
      count: this.count,
      p50: round(this.percentile(50)),
      p99: round(this.percentile(99)),
      max: round(this.max),
    };
  }
}
