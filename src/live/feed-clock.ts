import { utcIso } from '../model/utc-time.js';
import { FeedRefusal } from './errors.js';
import type { FeedInput } from './feed-input.js';

/**
 * The feed's time: the latest time of its swaps and ticks. An input is held back `lateness`
 * seconds of that time, so one that comes a little out of order still takes its place in event
 * order; everything at or before the latest time less the lateness (the threshold) can be
 * applied, as no input earlier than it will be taken any more. The run ends once the threshold
 * passes `window_end`.
 *
 * The rules of what is taken are here, in one place: the service checks a batch with them
 * before logging it, and a log is read back with them.
 */
export class FeedClock {
  /** The latest time of a swap or tick taken (−Infinity before the first). */
  latest = -Infinity;
  /** The earliest native price point taken (Infinity before the first). */
  firstNative = Infinity;

  constructor(
    readonly lateness: number,
    readonly windowEnd: number,
  ) {}

  /** The time at or before which everything can be applied: no earlier input is taken any more. */
  get threshold(): number {
    return this.latest - this.lateness;
  }

  /** True once the threshold is past `window_end`: the run is over. */
  get ended(): boolean {
    return this.threshold > this.windowEnd;
  }

  copy(): FeedClock {
    const clock = new FeedClock(this.lateness, this.windowEnd);
    clock.latest = this.latest;
    clock.firstNative = this.firstNative;
    return clock;
  }

  /** Takes the state of `other` (a copy that took a whole batch). */
  adopt(other: FeedClock): void {
    this.latest = other.latest;
    this.firstNative = other.firstNative;
  }

  /** Refuses a batch when the run is over; the inputs of a batch that ends it are all taken. */
  checkOpen(): void {
    if (this.ended)
      throw new FeedRefusal('run_ended', `the feed passed window_end (${utcIso(this.windowEnd)}): the run is over`);
  }

  /** Takes `input` (item `item` of its batch), or throws the {@link FeedRefusal} that refuses it. */
  take(input: FeedInput, item: number): void {
    if (input.kind === 'swap' || input.kind === 'tick') {
      const time = input.kind === 'swap' ? input.swap.time : input.time;
      if (time < this.threshold) throw this.late(time, item, input.kind === 'swap' ? 'time' : 'tick');
      if (time > this.latest) this.latest = time;
    } else if (input.kind === 'native_prices') {
      input.points.forEach(([time], k) => this.takeNative(time, item, `native_prices[${k}][0]`));
    }
  }

  private late(time: number, item: number, field: string): FeedRefusal {
    const reason =
      `time ${time} (${utcIso(time)}) is more than the lateness of ${this.lateness} s before the feed's latest time ` +
      `${this.latest} (${utcIso(this.latest)}): it would be applied out of event order`;
    return new FeedRefusal('late_input', reason, { item, field });
  }

  /**
   * A native price point must not change a fee already charged: it is later than the threshold
   * (every fee charged so far is at or before it), and once the feed has a time, not earlier
   * than the first point (a fee before the first point was charged at that point's price).
   */
  private takeNative(time: number, item: number, field: string): void {
    if (time <= this.threshold) {
      const reason =
        `a native price at ${time} (${utcIso(time)}) is not later than the feed's applied time ${this.threshold}: ` +
        'it would change fees already charged';
      throw new FeedRefusal('late_input', reason, { item, field });
    }
    if (this.latest > -Infinity && time < this.firstNative) {
      const reason =
        `a native price at ${time} is earlier than the first one (${this.firstNative}) after the feed has begun: ` +
        'fees before the first point were charged at its price';
      throw new FeedRefusal('late_input', reason, { item, field });
    }
    if (time < this.firstNative) this.firstNative = time;
  }
}
