/**
 * How long swaps wait from being taken to being applied, over the last samples: the lateness
 * holds them back by design, so the figure to watch is how far above the lateness it goes.
 */
export class LatencyStats {
  private readonly samples: Float64Array;
  private filled = 0;
  private next = 0;
  count = 0;
  max = 0;

  constructor(capacity = 1 << 16) {
    this.samples = new Float64Array(capacity);
  }

  readonly add = (ms: number): void => {
    this.samples[this.next] = ms;
    this.next = (this.next + 1) % this.samples.length;
    if (this.filled < this.samples.length) this.filled++;
    this.count++;
    if (ms > this.max) this.max = ms;
  };

  reset(): void {
    this.filled = this.next = this.count = this.max = 0;
  }

  /** The `p`-th percentile (0 to 100) of the last samples, in ms; 0 without samples. */
  percentile(p: number): number {
    if (this.filled === 0) return 0;
    const sorted = this.samples.slice(0, this.filled).sort();
    return sorted[Math.min(this.filled - 1, Math.floor((p / 100) * this.filled))]!;
  }

  /** The figures as the status reports them, rounded to 0.1 ms. */
  summary(): { count: number; p50: number; p99: number; max: number } {
    const round = (ms: number): number => Math.round(ms * 10) / 10;
    return { count: this.count, p50: round(this.percentile(50)), p99: round(this.percentile(99)), max: round(this.max) };
  }
}
