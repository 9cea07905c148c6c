/**
 * The identities every simulation result must hold, as pure checks that return a list of
 * problems (empty when all hold). Shared by the property tests, the saved regressions and the
 * real-data test.
 *
 * Numbers are compared after the response's decimal → float64 conversion, so an identity that
 * is exact in decimals holds here up to rounding: within 1e-9 relative to the magnitude of the
 * terms involved (absolute 1e-9 near 0). See {@link near}.
 */
import { Decimal } from '../../src/model/decimal.js';
import {
  DEFAULT_ENGINE_OPTIONS,
  type EngineOptionsInput,
  type SimulatedDeal,
  type SimulatorRequestInput,
  type SimulatorResponse,
  type TapeInput,
} from '../../src/index.js';

/** What a check needs to know about the run it checks. */
export interface Run {
  readonly tape: TapeInput;
  readonly request: SimulatorRequestInput;
  readonly options: EngineOptionsInput;
  readonly response: SimulatorResponse;
}

/**
 * True when `a` and `b` agree up to float64 rounding: within 1e-9 × `scale`, where `scale` is
 * the largest of 1, |a|, |b| and the given magnitude of the terms that were summed.
 */
export function near(a: number, b: number, magnitude = 0): boolean {
  const scale = Math.max(1, Math.abs(a), Math.abs(b), magnitude);
  return Math.abs(a - b) <= 1e-9 * scale;
}

function sum(values: readonly number[]): number {
  return values.reduce((s, v) => s + v, 0);
}

function magnitude(values: readonly number[]): number {
  return values.reduce((s, v) => s + Math.abs(v), 0);
}

const TIMEFIX_TYPES = new Set(['sell_timefix', 'sell_timefix_final']);
const isSell = (type: string): boolean => type !== 'buy';

function windowOf(request: SimulatorRequestInput): { start: number; end: number } {
  return {
    start: Date.parse(`${request.from_date}T00:00:00Z`) / 1000,
    end: Date.parse(`${request.to_date}T23:59:59Z`) / 1000,
  };
}

/** PnL identities per deal and in the summary, and summary fields as sums of deal fields. */
export function checkSums({ response }: Run): string[] {
  const problems: string[] = [];
  const { summary, deals } = response;
  deals.forEach((d, i) => {
    if (!near(d.pnl_total, d.pnl_realized + d.pnl_unrealized, Math.abs(d.pnl_realized) + Math.abs(d.pnl_unrealized))) {
      problems.push(`deals[${i}]: pnl_total ${d.pnl_total} ≠ pnl_realized ${d.pnl_realized} + pnl_unrealized ${d.pnl_unrealized}`);
    }
  });
  const s = summary;
  if (!near(s.pnl_total, s.pnl_realized + s.pnl_unrealized, Math.abs(s.pnl_realized) + Math.abs(s.pnl_unrealized))) {
    problems.push(`summary: pnl_total ${s.pnl_total} ≠ pnl_realized ${s.pnl_realized} + pnl_unrealized ${s.pnl_unrealized}`);
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
    ['investment_amount_closed_deals', pick((d) => d.investment_amount, (d) => d.status === 'closed')],
    ['investment_amount_open_deals', pick((d) => d.investment_amount, (d) => d.status === 'open')],
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
    if (d.trades_number !== d.trades.length) problems.push(`deals[${i}].trades_number ${d.trades_number} ≠ ${d.trades.length} trades`);
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
    if (!near(chart.pnl_realized[last]!, s.pnl_realized)) problems.push(`last chart pnl_realized ${chart.pnl_realized[last]} ≠ summary ${s.pnl_realized}`);
    if (!near(chart.fee_sum[last]!, fees)) problems.push(`last chart fee_sum ${chart.fee_sum[last]} ≠ summary network_fees + bot_fees ${fees}`);
    if (!near(chart.bot_fee[last]!, s.bot_fees)) problems.push(`last chart bot_fee ${chart.bot_fee[last]} ≠ summary bot_fees ${s.bot_fees}`);
    if (pricesStillAfter(run, chart.timestamps[last]!)) {
      if (!near(chart.pnl_unrealized[last]!, s.pnl_unrealized)) problems.push(`last chart pnl_unrealized ${chart.pnl_unrealized[last]} ≠ summary ${s.pnl_unrealized}`);
      if (!near(chart.pnl_total[last]!, s.pnl_total)) problems.push(`last chart pnl_total ${chart.pnl_total[last]} ≠ summary ${s.pnl_total}`);
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
    if (group.length > 0 && Math.abs(values[values.length - 1]! - total) > 1 + 1e-9 * magnitude(group.map((d) => d.pnl_total))) {
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
      if (!near(d.closed_position, 100)) problems.push(`deals[${i}] is closed with closed_position ${d.closed_position} ≠ 100`);
      if (d.pnl_unrealized !== 0) problems.push(`deals[${i}] is closed with pnl_unrealized ${d.pnl_unrealized} ≠ 0`);
      if (!near(d.pnl_total, d.pnl_realized)) problems.push(`deals[${i}] is closed with pnl_total ${d.pnl_total} ≠ pnl_realized ${d.pnl_realized}`);
      if (d.special_tag === null && d.trades[d.trades.length - 1]!.type !== 'sell') {
        problems.push(`deals[${i}] closed without a tag by a ${d.trades[d.trades.length - 1]!.type}`);
      }
      // Σ sells − Σ buys − Σ fees: only when every buy precedes every sell, since the average
      // buy price of the model spans all buys of the deal (see model-limits.test.ts).
      if (!buysAfterASell(d)) {
        const terms = d.trades.flatMap((t) => [t.usd_amount ?? 0, t.usd_network_fee, t.usd_bot_fee]);
        const cash = sum(d.trades.map((t) => (isSell(t.type) ? 1 : -1) * (t.usd_amount ?? 0) - t.usd_network_fee - t.usd_bot_fee));
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

/**
 * Caps: every buy is > 0 and ≤ `max_buy_amount`, and ≤ `max_position_amount − usd_invested`
 * before it; `usd_invested ≤ max_position_amount` after every buy that no sell of its deal
 * preceded (after a partial sell the model's all-buys average can lift `usd_invested` past the
 * cap, see model-limits.test.ts); buys per deal ≤ 1 + `max_dupe_buy_times`.
 */
export function checkCaps({ request, response }: Run): string[] {
  const problems: string[] = [];
  response.deals.forEach((d, i) => {
    let invested = 0;
    let sold = false;
    d.trades.forEach((t, k) => {
      const where = `deals[${i}].trades[${k}]`;
      if (t.type === 'buy') {
        const amount = t.usd_amount ?? 0;
        if (!(amount > 0)) problems.push(`${where}: buy of ${amount} USD`);
        if (amount > request.max_buy_amount && !near(amount, request.max_buy_amount)) {
          problems.push(`${where}: buy of ${amount} USD > max_buy_amount ${request.max_buy_amount}`);
        }
        const room = request.max_position_amount - invested;
        if (amount > room && !near(amount, room, request.max_position_amount)) {
          problems.push(`${where}: buy of ${amount} USD > max_position_amount − usd_invested = ${room}`);
        }
        if (!sold && t.usd_invested > request.max_position_amount && !near(t.usd_invested, request.max_position_amount)) {
          problems.push(`${where}: usd_invested ${t.usd_invested} > max_position_amount ${request.max_position_amount}`);
        }
      } else sold = true;
      invested = t.usd_invested;
    });
    const buys = d.trades.filter((t) => t.type === 'buy').length;
    if (buys > 1 + request.max_dupe_buy_times) problems.push(`deals[${i}] has ${buys} buys > 1 + max_dupe_buy_times ${request.max_dupe_buy_times}`);
    if (d.trades[0]?.type !== 'buy') problems.push(`deals[${i}] does not open with a buy`);
  });
  return problems;
}

/** Time-fix and close_all rules (model 3.2, 3.4). */
export function checkSettings({ request, response }: Run): string[] {
  const problems: string[] = [];
  const fix = request.inactivity_time_fix ?? null;
  const { start, end } = windowOf(request);
  response.deals.forEach((d, i) => {
    const types = d.trades.map((t) => t.type);
    d.trades.forEach((t, k) => {
      if (t.time < start || t.time > end) problems.push(`deals[${i}].trades[${k}] at ${t.time} is outside the window`);
      if (k > 0 && t.time < d.trades[k - 1]!.time) problems.push(`deals[${i}].trades[${k}] goes back in time`);
    });
    if (d.open_time !== d.trades[0]!.time) problems.push(`deals[${i}].open_time ≠ its first trade's time`);
    if (d.last_operation_time !== d.trades[d.trades.length - 1]!.time) problems.push(`deals[${i}].last_operation_time ≠ its last trade's time`);
    if (fix === null) {
      if (types.some((t) => TIMEFIX_TYPES.has(t)) || (d.special_tag !== null && TIMEFIX_TYPES.has(d.special_tag))) {
        problems.push(`deals[${i}] has a time-fix without inactivity_time_fix`);
      }
    } else {
      if (d.status !== 'closed') problems.push(`deals[${i}] is open at the end with inactivity_time_fix set`);
      const gap = fix.hours * 3_600;
      d.trades.forEach((t, k) => {
        if (k === 0) return;
        const since = t.time - d.trades[k - 1]!.time;
        if (since > gap) problems.push(`deals[${i}].trades[${k}] comes ${since} s after the one before, more than ${fix.hours} h`);
        if (t.type === 'sell_timefix' && since !== gap) problems.push(`deals[${i}].trades[${k}]: sell_timefix ${since} s after the trade before, not ${gap}`);
      });
      const lastTrade = d.trades[d.trades.length - 1]!;
      if (lastTrade.type === 'sell_timefix_final' && lastTrade.time !== end) problems.push(`deals[${i}]: sell_timefix_final not at window_end`);
    }
    if (request.close_all === true) {
      const sells = types.filter(isSell).length;
      if (sells > 1) problems.push(`deals[${i}] has ${sells} sells with close_all`);
    } else if (d.special_tag === 'close_all') problems.push(`deals[${i}] is tagged close_all without close_all`);
    types.forEach((t, k) => {
      if (isSell(t) && k < types.length - 1 && t !== 'sell') problems.push(`deals[${i}]: a ${t} is not its last trade`);
    });
  });
  const opens = response.deals.map((d) => d.open_time);
  if (opens.some((t, k) => k > 0 && t < opens[k - 1]!)) problems.push('deals are not ordered by open_time');
  return problems;
}

/** The native price at `t`: the last point at or before t, else the first (model 1.1). */
function nativePriceAt(points: readonly (readonly [number, number | string])[], t: number): Decimal {
  const sorted = points.map((p, i) => ({ t: p[0], price: p[1], i })).sort((a, b) => a.t - b.t || a.i - b.i);
  let price = sorted[0]!.price;
  for (const p of sorted) if (p.t <= t) price = p.price;
  return new Decimal(price);
}

/**
 * Fees: all ≥ 0; bot fees 0 without `include_bot_fees`, else `usd_amount × bot_fee_percent / 100`;
 * each network fee is `(base + priority_fee + bribe) × native price at the trade's time`;
 * `fee_sum` and `bot_fee` of the chart never decrease.
 */
export function checkFees({ tape, request, options, response }: Run): string[] {
  const problems: string[] = [];
  const network = request.network;
  const base = options.base_fee_native?.[network] ?? DEFAULT_ENGINE_OPTIONS.base_fee_native[network];
  const botPercent = options.bot_fee_percent ?? DEFAULT_ENGINE_OPTIONS.bot_fee_percent;
  const perTrade = new Decimal(base).plus(request.priority_fee).plus(request.bribe);
  response.deals.forEach((d, i) =>
    d.trades.forEach((t, k) => {
      const where = `deals[${i}].trades[${k}]`;
      if (t.usd_network_fee < 0 || t.usd_bot_fee < 0) problems.push(`${where}: a negative fee`);
      const network = perTrade.times(nativePriceAt(tape.native_prices ?? [], t.time)).toNumber();
      if (!near(t.usd_network_fee, network)) problems.push(`${where}: usd_network_fee ${t.usd_network_fee} ≠ ${network}`);
      const bot = request.include_bot_fees === true ? new Decimal(t.usd_amount ?? 0).times(botPercent).div(100).toNumber() : 0;
      if (!near(t.usd_bot_fee, bot)) problems.push(`${where}: usd_bot_fee ${t.usd_bot_fee} ≠ ${bot}`);
    }),
  );
  const chart = response.cumulative_pnl_and_fee_chart;
  for (const series of ['fee_sum', 'bot_fee'] as const) {
    const values = chart[series];
    values.forEach((v, k) => {
      if (v < 0) problems.push(`chart ${series}[${k}] is negative`);
      if (k > 0 && v < values[k - 1]!) problems.push(`chart ${series}[${k}] ${v} < ${values[k - 1]} before it`);
    });
  }
  return problems;
}

/** Charts: one PnL point per trade, timestamps never decrease, deal_indexes name each trade's deal. */
export function checkCharts({ response }: Run): string[] {
  const problems: string[] = [];
  const chart = response.cumulative_pnl_and_fee_chart;
  const trades = sum(response.deals.map((d) => d.trades.length));
  const lengths = Object.entries(chart).map(([name, values]) => `${name}: ${values.length}`);
  if (Object.values(chart).some((values) => values.length !== trades)) problems.push(`chart lengths ${lengths.join(', ')} for ${trades} trades`);
  const next = response.deals.map(() => 0);
  chart.timestamps.forEach((t, k) => {
    if (k > 0 && t < chart.timestamps[k - 1]!) problems.push(`chart timestamps[${k}] ${t} goes back in time`);
    const d = chart.deal_indexes[k]!;
    const trade = response.deals[d]?.trades[next[d]!];
    if (trade === undefined) problems.push(`chart point ${k} names deal ${d}, which has no trade left`);
    else if (trade.time !== t) problems.push(`chart point ${k} at ${t} but deals[${d}].trades[${next[d]}] is at ${trade.time}`);
    if (next[d] !== undefined) next[d]++;
  });
  for (const series of ['closed', 'open'] as const) {
    const ts = response[`cumulative_usd_${series}_deals_chart`].timestamps;
    if (series === 'closed' && ts.some((t, k) => k > 0 && t < ts[k - 1]!)) problems.push('closed deals chart goes back in time');
  }
  return problems;
}

/** Every identity above; the ones that hold for every valid input. */
export const ALL_CHECKS = { checkSums, checkLastPoint, checkDealStatus, checkCaps, checkSettings, checkFees, checkCharts } as const;

/** Runs every check and returns all problems, each prefixed by its check's name. */
export function checkAll(run: Run): string[] {
  return Object.entries(ALL_CHECKS).flatMap(([name, check]) => check(run).map((p) => `${name}: ${p}`));
}
