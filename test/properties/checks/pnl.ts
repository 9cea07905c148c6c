/** PnL identities: sums, the last chart point, closed and open deals. */
import { Decimal } from '../../../src/numeric/decimal.js';
import type { SimulatedDeal } from '../../../src/index.js';
import { isSell, magnitude, near, sum, windowOf, type Run } from './support.js';

/** PnL identities per deal and in the summary, and summary fields as sums of deal fields. */
export function checkSums({ response }: Run): string[] {
  const problems: string[] = [];
  const { summary, deals } = response;
  deals.forEach((d, i) => {
    if (!near(d.pnl_total, d.pnl_realized + d.pnl_unrealized, Math.abs(d.pnl_realized) + Math.abs(d.pnl_unrealized))) {
      problems.push(
        `deals[${i}]: pnl_total ${d.pnl_total} ≠ pnl_realized ${d.pnl_realized} + pnl_unrealized ${d.pnl_unrealized}`,
      );
    }
  });
  const s = summary;
  if (!near(s.pnl_total, s.pnl_realized + s.pnl_unrealized, Math.abs(s.pnl_realized) + Math.abs(s.pnl_unrealized))) {
    problems.push(
      `summary: pnl_total ${s.pnl_total} ≠ pnl_realized ${s.pnl_realized} + pnl_unrealized ${s.pnl_unrealized}`,
    );
  }
  const pick = (f: (d: SimulatedDeal) => number, filter: (d: SimulatedDeal) => boolean = () => true): number[] =>
    deals.filter(filter).map(f);
  const expectations: [keyof typeof s, number[]][] = [
    ['pnl_realized', pick((d) => d.pnl_realized)],
    ['pnl_unrealized', pick((d) => d.pnl_unrealized)],
    ['pnl_total', pick((d) => d.pnl_total)],
    ['bot_fees', pick((d) => d.usd_bot_fee)],
    ['network_fees', pick((d) => d.usd_network_fee)],
    ['slippage_loss', pick((d) => d.usd_slippage_loss)],
    ['investment_amount', pick((d) => d.investment_amount)],
    [
      'investment_amount_closed_deals',
      pick(
        (d) => d.investment_amount,
        (d) => d.status === 'closed',
      ),
    ],
    [
      'investment_amount_open_deals',
      pick(
        (d) => d.investment_amount,
        (d) => d.status === 'open',
      ),
    ],
    ['trading_volume', deals.flatMap((d) => d.trades.map((t) => t.usd_amount ?? 0))],
  ];
  for (const [field, terms] of expectations) {
    if (!near(s[field], sum(terms), magnitude(terms))) {
      problems.push(`summary.${field} ${s[field]} ≠ Σ over deals ${sum(terms)}`);
    }
  }
  deals.forEach((d, i) => {
    const fees = (f: 'usd_network_fee' | 'usd_bot_fee'): number[] => d.trades.map((t) => t[f]);
    if (!near(d.usd_network_fee, sum(fees('usd_network_fee')), magnitude(fees('usd_network_fee')))) {
      problems.push(`deals[${i}].usd_network_fee ${d.usd_network_fee} ≠ Σ over its trades`);
    }
    if (!near(d.usd_bot_fee, sum(fees('usd_bot_fee')), magnitude(fees('usd_bot_fee')))) {
      problems.push(`deals[${i}].usd_bot_fee ${d.usd_bot_fee} ≠ Σ over its trades`);
    }
    if (d.trades_number !== d.trades.length)
      problems.push(`deals[${i}].trades_number ${d.trades_number} ≠ ${d.trades.length} trades`);
  });
  return problems;
}

/**
 * The last point of the PnL chart equals the summary: realized PnL and fees always; unrealized
 * and total PnL when no deal is open at the end, or when the prices of the open deals' tokens do
 * not move after the last follower trade (the chart values them at that moment, the summary at
 * `window_end`). The deal charts' last values are the rounded sums of closed and open deals.
 */
export function checkLastPoint(run: Run): string[] {
  const { response } = run;
  const { summary: s, deals } = response;
  const chart = response.cumulative_pnl_and_fee_chart;
  const problems: string[] = [];
  const n = chart.timestamps.length;
  if (n === 0) {
    if (deals.length > 0) problems.push('the PnL chart is empty but there are deals');
  } else {
    const last = n - 1;
    const fees = s.network_fees + s.bot_fees;
    if (!near(chart.pnl_realized[last]!, s.pnl_realized))
      problems.push(`last chart pnl_realized ${chart.pnl_realized[last]} ≠ summary ${s.pnl_realized}`);
    if (!near(chart.fee_sum[last]!, fees))
      problems.push(`last chart fee_sum ${chart.fee_sum[last]} ≠ summary network_fees + bot_fees ${fees}`);
    if (!near(chart.bot_fee[last]!, s.bot_fees))
      problems.push(`last chart bot_fee ${chart.bot_fee[last]} ≠ summary bot_fees ${s.bot_fees}`);
    if (pricesStillAfter(run, chart.timestamps[last]!)) {
      if (!near(chart.pnl_unrealized[last]!, s.pnl_unrealized))
        problems.push(`last chart pnl_unrealized ${chart.pnl_unrealized[last]} ≠ summary ${s.pnl_unrealized}`);
      if (!near(chart.pnl_total[last]!, s.pnl_total))
        problems.push(`last chart pnl_total ${chart.pnl_total[last]} ≠ summary ${s.pnl_total}`);
    }
  }
  const closed = deals.filter((d) => d.status === 'closed');
  const open = deals.filter((d) => d.status === 'open');
  for (const [name, group] of [
    ['cumulative_usd_closed_deals_chart', closed],
    ['cumulative_usd_open_deals_chart', open],
  ] as const) {
    const values = response[name].values;
    if (values.length !== group.length) problems.push(`${name} has ${values.length} points for ${group.length} deals`);
    const total = sum(group.map((d) => d.pnl_total));
    // Rounded to a whole number after float conversion: within 1, as the golden comparison allows.
    if (
      group.length > 0 &&
      Math.abs(values[values.length - 1]! - total) > 1 + 1e-9 * magnitude(group.map((d) => d.pnl_total))
    ) {
      problems.push(`${name}: last value ${values[values.length - 1]} is not the rounded Σ pnl_total ${total}`);
    }
  }
  return problems;
}

/** True when no deal is open at the end, or no open deal's token price moves from just before `t` to `window_end`. */
function pricesStillAfter({ tape, request, response }: Run, t: number): boolean {
  const open = response.deals.filter((d) => d.status === 'open');
  if (open.length === 0) return true;
  const { end } = windowOf(request);
  const key = (a: string): string => (tape.network === 'eth' ? a.toLowerCase() : a);
  const tokens = new Set(open.map((d) => key(d.token.address)));
  const events = tape.swaps
    .map((swap, i) => ({ swap, i }))
    .filter(({ swap }) => swap.time <= end && tokens.has(key(swap.token)))
    .sort((a, b) => a.swap.time - b.swap.time || a.i - b.i);
  for (const token of tokens) {
    const mine = events.filter((e) => key(e.swap.token) === token).map((e) => e.swap);
    let from = 0;
    mine.forEach((s, k) => {
      if (s.time < t) from = k;
    });
    const prices = mine.slice(from).map((s) => new Decimal(s.usd_price));
    if (prices.some((p) => !p.eq(prices[0]!))) return false;
  }
  return true;
}

/** Closed deals are fully sold with no unrealized PnL; open deals are not. */
export function checkDealStatus({ response }: Run): string[] {
  const problems: string[] = [];
  response.deals.forEach((d, i) => {
    if (d.status === 'closed') {
      if (!near(d.closed_position, 100))
        problems.push(`deals[${i}] is closed with closed_position ${d.closed_position} ≠ 100`);
      if (d.pnl_unrealized !== 0) problems.push(`deals[${i}] is closed with pnl_unrealized ${d.pnl_unrealized} ≠ 0`);
      if (!near(d.pnl_total, d.pnl_realized))
        problems.push(`deals[${i}] is closed with pnl_total ${d.pnl_total} ≠ pnl_realized ${d.pnl_realized}`);
      if (d.special_tag === null && d.trades[d.trades.length - 1]!.type !== 'sell') {
        problems.push(`deals[${i}] closed without a tag by a ${d.trades[d.trades.length - 1]!.type}`);
      }
      // Σ sells − Σ buys − Σ fees: only when every buy precedes every sell, since the average
      // buy price of the model spans all buys of the deal (see model-limits.test.ts).
      if (!buysAfterASell(d)) {
        const terms = d.trades.flatMap((t) => [t.usd_amount ?? 0, t.usd_network_fee, t.usd_bot_fee]);
        const cash = sum(
          d.trades.map((t) => (isSell(t.type) ? 1 : -1) * (t.usd_amount ?? 0) - t.usd_network_fee - t.usd_bot_fee),
        );
        if (!near(d.pnl_total, cash, magnitude(terms))) {
          problems.push(`deals[${i}]: pnl_total ${d.pnl_total} ≠ Σ sells − Σ buys − Σ fees ${cash}`);
        }
      }
    } else {
      // A leader selling 99.999999 % of its holdings leaves the follower a dust lot: the deal is
      // open, exactly below 100 % sold, yet closed_position may round to 100 as a float64.
      const holds = d.trades[d.trades.length - 1]!.usd_invested > 0;
      if (!(d.closed_position >= 0 && (d.closed_position < 100 || (d.closed_position === 100 && holds)))) {
        problems.push(`deals[${i}] is open with closed_position ${d.closed_position}`);
      }
      if (d.special_tag !== null) problems.push(`deals[${i}] is open with special_tag ${d.special_tag}`);
    }
  });
  return problems;
}

/** True when the deal has a buy after one of its sells. */
export function buysAfterASell(deal: SimulatedDeal): boolean {
  const firstSell = deal.trades.findIndex((t) => isSell(t.type));
  return firstSell >= 0 && deal.trades.slice(firstSell).some((t) => t.type === 'buy');
}
