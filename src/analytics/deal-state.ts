import { type Decimal, HUNDRED, ZERO } from '../numeric/decimal.js';
import type { TokenSeries } from './buckets.js';

/**
 * A deal's accounting right after one of its trades, at that trade's event position: all a
 * deal's `roi_total` at a later swap of its token needs (model section 4).
 */
export interface DealState {
  /** Event position of the swap of this trade (for the follower: the wallet swap it copied). */
  readonly pos: number;
  /** The deal's realized PnL so far. */
  readonly realized: Decimal;
  /** Tokens held. */
  readonly qty: Decimal;
  /** `qty × usd_buy_price_avg`. */
  readonly invested: Decimal;
  /** USD spent on buys so far. */
  readonly boughtUsd: Decimal;
}

/** `roi_total` of a deal in `state` when its token's known price is `price`. */
export function roiAt(state: DealState, price: Decimal): Decimal {
  const unrealized = state.qty.isZero() ? ZERO : state.qty.times(price).minus(state.invested);
  return HUNDRED.times(state.realized.plus(unrealized)).div(state.boughtUsd);
}

/**
 * `roi_low` and `roi_high` of a deal: the lowest and highest `roi_total` it reached at any swap
 * of its token from its first trade to its last one (or, while open, up to event position
 * `end`, exclusive). Between two of its trades a deal's state is fixed and its `roi_total`
 * grows with the price (it holds `qty ≥ 0`), so each stretch needs only its lowest and highest
 * price.
 *
 * @example
 * // bought 10 at 1, price went 0.5 then 3, sold all at 2: roi_low −50, roi_high 200
 */
export function roiRange(
  series: TokenSeries,
  states: readonly DealState[],
  end: number,
): { low: Decimal; high: Decimal } {
  let low: Decimal | null = null;
  let high: Decimal | null = null;
  const take = (roi: Decimal): void => {
    if (low === null || roi.lt(low)) low = roi;
    if (high === null || roi.gt(high)) high = roi;
  };
  states.forEach((state, k) => {
    const next = states[k + 1];
    if (state.qty.isZero()) {
      take(roiAt(state, ZERO));
      return;
    }
    const range = series.priceRange(state.pos, next !== undefined ? next.pos : end);
    if (range === null) return;
    take(roiAt(state, range.low));
    take(roiAt(state, range.high));
  });
  return { low: low ?? ZERO, high: high ?? ZERO };
}
