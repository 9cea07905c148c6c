import { Decimal, type DecimalInput } from '../numeric/decimal.js';
import { InputError } from '../model/errors.js';
import { utcIso } from '../model/utc-time.js';

/**
 * The native coin's USD price over time (model 1.1): the last point at or before t; before the
 * first point, the first point's price. An empty series is an input error only when a price is
 * asked for, that is when a follower trade needs its network fee.
 */
export class NativePriceSeries {
  private readonly times: number[];
  private readonly prices: Decimal[];

  constructor(
    /** The points as given, for a copy of the series elsewhere (a worker thread). */
    readonly points: readonly (readonly [number, DecimalInput])[],
  ) {
    const sorted = points.map((p, i) => ({ time: p[0], price: p[1], i })).sort((a, b) => a.time - b.time || a.i - b.i);
    this.times = sorted.map((p) => p.time);
    this.prices = sorted.map((p) => new Decimal(p.price));
  }

  get length(): number {
    return this.times.length;
  }

  /** USD price of one native coin at time `t`. */
  at(t: number): Decimal {
    const { times, prices } = this;
    if (times.length === 0) {
      throw new InputError(
        `tape: native_prices is empty, but a follower trade at time ${t} (${utcIso(t)})` +
          ` needs the native coin's USD price for its network fee: ` +
          "add [time, usd_price] points to the tape's native_prices" +
          ' (importers take them in their `nativePrices` option), ' +
          "or make the fees zero (engine option base_fee_native, the request's priority_fee and bribe)",
        { source: 'tape', path: 'native_prices' },
      );
    }
    // Binary search for the last point with time <= t.
    let lo = 0;
    let hi = times.length - 1;
    if (t < times[0]!) return prices[0]!;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (times[mid]! <= t) lo = mid;
      else hi = mid - 1;
    }
    return prices[lo]!;
  }
}
