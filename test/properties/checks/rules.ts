/** Rules of the request and the engine: caps, time-fix and close_all, fees, charts. */
import { Decimal } from '../../../src/numeric/decimal.js';
import { DEFAULT_ENGINE_OPTIONS } from '../../../src/index.js';
import { isSell, near, sum, TIMEFIX_TYPES, windowOf, type Run } from './support.js';

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
        if (
          !sold &&
          t.usd_invested > request.max_position_amount &&
          !near(t.usd_invested, request.max_position_amount)
        ) {
          problems.push(
            `${where}: usd_invested ${t.usd_invested} > max_position_amount ${request.max_position_amount}`,
          );
        }
      } else sold = true;
      invested = t.usd_invested;
    });
    const buys = d.trades.filter((t) => t.type === 'buy').length;
    if (buys > 1 + request.max_dupe_buy_times)
      problems.push(`deals[${i}] has ${buys} buys > 1 + max_dupe_buy_times ${request.max_dupe_buy_times}`);
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
    if (d.last_operation_time !== d.trades[d.trades.length - 1]!.time)
      problems.push(`deals[${i}].last_operation_time ≠ its last trade's time`);
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
        if (since > gap)
          problems.push(`deals[${i}].trades[${k}] comes ${since} s after the one before, more than ${fix.hours} h`);
        if (t.type === 'sell_timefix' && since !== gap)
          problems.push(`deals[${i}].trades[${k}]: sell_timefix ${since} s after the trade before, not ${gap}`);
      });
      const lastTrade = d.trades[d.trades.length - 1]!;
      if (lastTrade.type === 'sell_timefix_final' && lastTrade.time !== end)
        problems.push(`deals[${i}]: sell_timefix_final not at window_end`);
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
      if (!near(t.usd_network_fee, network))
        problems.push(`${where}: usd_network_fee ${t.usd_network_fee} ≠ ${network}`);
      const bot =
        request.include_bot_fees === true ? new Decimal(t.usd_amount ?? 0).times(botPercent).div(100).toNumber() : 0;
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
  if (Object.values(chart).some((values) => values.length !== trades))
    problems.push(`chart lengths ${lengths.join(', ')} for ${trades} trades`);
  const next = response.deals.map(() => 0);
  chart.timestamps.forEach((t, k) => {
    if (k > 0 && t < chart.timestamps[k - 1]!) problems.push(`chart timestamps[${k}] ${t} goes back in time`);
    const d = chart.deal_indexes[k]!;
    const trade = response.deals[d]?.trades[next[d]!];
    if (trade === undefined) problems.push(`chart point ${k} names deal ${d}, which has no trade left`);
    else if (trade.time !== t)
      problems.push(`chart point ${k} at ${t} but deals[${d}].trades[${next[d]}] is at ${trade.time}`);
    if (next[d] !== undefined) next[d]++;
  });
  for (const series of ['closed', 'open'] as const) {
    const ts = response[`cumulative_usd_${series}_deals_chart`].timestamps;
    if (series === 'closed' && ts.some((t, k) => k > 0 && t < ts[k - 1]!))
      problems.push('closed deals chart goes back in time');
  }
  return problems;
}
