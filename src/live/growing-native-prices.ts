import { Decimal } from '../numeric/decimal.js';
import { NativePriceSeries } from '../engine/native-prices.js';
import type { NativePoint } from './feed-input.js';

/**
 * A native-coin price series that grows as a feed brings points: the same answers as a
 * {@link NativePriceSeries} made of all its points in the order they came (sorted by time,
 * points of one time in that order), at every moment. The feed's clock sees to it that a point
 * never comes too late to be the one a fee already charged should have used.
 */
export class GrowingNativePrices extends NativePriceSeries {
  private readonly sortedTimes: number[] = [];
  private readonly sortedPrices: Decimal[] = [];
  private readonly all: NativePoint[];

  constructor() {
    const all: NativePoint[] = [];
    super(all);
    this.all = all;
  }

  override get length(): number {
    return this.sortedTimes.length;
  }

  /** Adds a point after every point of its time or earlier (where a stable sort puts it). */
  add([time, usd]: NativePoint): void {
    const price = new Decimal(usd);
    const { sortedTimes: times, sortedPrices: prices } = this;
    let at = times.length;
    while (at > 0 && times[at - 1]! > time) at--;
    times.splice(at, 0, time);
    prices.splice(at, 0, price);
    this.all.push([time, usd]);
  }

  override at(t: number): Decimal {
    const { sortedTimes: times, sortedPrices: prices } = this;
    // Empty: the series' own error, which names the fix.
    if (times.length === 0) return super.at(t);
    if (t < times[0]!) return prices[0]!;
    let lo = 0;
    let hi = times.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (times[mid]! <= t) lo = mid;
      else hi = mid - 1;
    }
    return prices[lo]!;
  }
}
