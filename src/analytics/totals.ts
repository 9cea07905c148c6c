import { z } from 'zod';
import { Decimal, HUNDRED, ZERO } from '../numeric/decimal.js';
import { PERIOD_KEYS, periodStart, type PeriodKey } from './periods.js';
import type { DealFigures } from './own-deals.js';

/** The keys of the indicator map (interface 2.4). */
export const INDICATOR_KEYS = [
  'pnl_realized',
  'pnl_unrealized',
  'pnl_total',
  'roi_realized',
  'roi_total',
  'winrate',
  'deals_number',
  'trading_volume',
  'investment_amount',
] as const;
export const IndicatorKeySchema = z.enum(INDICATOR_KEYS);
/** An indicator of the indicator map. */
export type IndicatorKey = z.infer<typeof IndicatorKeySchema>;

/** Sums over a set of deals, from which every indicator follows. */
export class DealTotals {
  deals = 0;
  closed = 0;
  /** Closed deals with `pnl_total > 0`. */
  wins = 0;
  realized = ZERO;
  unrealized = ZERO;
  investment = ZERO;
  volume = ZERO;

  clone(): DealTotals {
    return Object.assign(new DealTotals(), this);
  }

  add(deal: DealFigures): void {
    this.deals++;
    if (deal.closed) {
      this.closed++;
      if (deal.realized.plus(deal.unrealized).gt(0)) this.wins++;
    }
    this.realized = this.realized.plus(deal.realized);
    this.unrealized = this.unrealized.plus(deal.unrealized);
    this.investment = this.investment.plus(deal.investment);
    this.volume = this.volume.plus(deal.volume);
  }

  /**
   * One indicator: PnL sums; ROI = 100 × PnL / investment (0 without investment); winrate =
   * percent of closed deals with `pnl_total > 0` (0 without closed deals).
   */
  value(key: IndicatorKey): Decimal {
    const percentOf = (part: Decimal, whole: Decimal): Decimal =>
      whole.isZero() ? ZERO : HUNDRED.times(part).div(whole);
    switch (key) {
      case 'pnl_realized':
        return this.realized;
      case 'pnl_unrealized':
        return this.unrealized;
      case 'pnl_total':
        return this.realized.plus(this.unrealized);
      case 'roi_realized':
        return percentOf(this.realized, this.investment);
      case 'roi_total':
        return percentOf(this.realized.plus(this.unrealized), this.investment);
      case 'winrate':
        return percentOf(new Decimal(this.wins), new Decimal(this.closed));
      case 'deals_number':
        return new Decimal(this.deals);
      case 'trading_volume':
        return this.volume;
      case 'investment_amount':
        return this.investment;
    }
  }
}

/** Totals of the deals that opened at or after `from` (null: all). */
export function totalsFrom(deals: Iterable<DealFigures>, from: number | null): DealTotals {
  const totals = new DealTotals();
  for (const deal of deals) if (from === null || deal.openTime >= from) totals.add(deal);
  return totals;
}

/**
 * Totals per period key at `now`: each period holds the deals that opened within it. `deals`
 * must be in opening order (non-decreasing `openTime`): the periods are nested, so one walk
 * from the newest deal back adds each deal once.
 *
 * @example
 * periodTotals(deals, now)['24h'].value('pnl_total');
 */
export function periodTotals(deals: readonly DealFigures[], now: number): Record<PeriodKey, DealTotals> {
  const out = {} as Record<PeriodKey, DealTotals>;
  const running = new DealTotals();
  let i = deals.length - 1;
  // PERIOD_KEYS runs from the shortest period to `all`.
  for (const key of PERIOD_KEYS) {
    const from = periodStart(key, now);
    for (; i >= 0 && (from === null || deals[i]!.openTime >= from); i--) running.add(deals[i]!);
    out[key] = running.clone();
  }
  return out;
}
