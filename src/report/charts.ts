import { roundHalfAwayFromZero, ZERO } from '../numeric/decimal.js';
import type { DealsChart, PnlAndFeeChart } from '../model/response.js';
import type { ChartPoints } from '../engine/trade-row.js';
import { closingOrder, type DealResult } from './deal-results.js';

/** `cumulative_pnl_and_fee_chart`: one point per follower trade, in execution order (model 6). */
export function pnlAndFeeChart(points: ChartPoints): PnlAndFeeChart {
  const chart: PnlAndFeeChart = {
    pnl_realized: [],
    pnl_unrealized: [],
    pnl_total: [],
    fee_sum: [],
    bot_fee: [],
    deal_indexes: [],
    timestamps: [],
  };
  for (let i = 0; i < points.length; i++) {
    const p = points.get(i);
    chart.pnl_realized.push(p.realized);
    chart.pnl_unrealized.push(p.unrealized);
    chart.pnl_total.push(p.total);
    chart.fee_sum.push(p.feeSum);
    chart.bot_fee.push(p.botFeeSum);
    chart.deal_indexes.push(p.dealIndex);
    chart.timestamps.push(p.time);
  }
  return chart;
}

function cumulativeChart(results: readonly DealResult[], timeOf: (r: DealResult) => number): DealsChart {
  const chart: DealsChart = { values: [], timestamps: [] };
  let sum = ZERO;
  for (const r of results) {
    sum = sum.plus(r.pnlTotal);
    chart.values.push(roundHalfAwayFromZero(sum));
    chart.timestamps.push(timeOf(r));
  }
  return chart;
}

/** `cumulative_usd_closed_deals_chart`: one point per closed deal, in closing order. */
export function closedDealsChart(results: readonly DealResult[]): DealsChart {
  return cumulativeChart(closingOrder(results), (r) => r.deal.closeTime);
}

/** `cumulative_usd_open_deals_chart`: one point per deal open at the end, in deal order. */
export function openDealsChart(results: readonly DealResult[]): DealsChart {
  return cumulativeChart(
    results.filter((r) => r.deal.open),
    (r) => r.deal.openTime,
  );
}
