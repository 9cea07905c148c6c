// @ts-check
// A simulator response in the form the report page draws. One module for both sides: the HTML
// report builds these data in Node (src/report/html/simulation-data.ts adds the tape's prices)
// and the service's page builds them in the browser from the simulator's answer. Not one of the
// report file's inlined modules: a report file carries the data already built.

/** @import { SimulatorRequest } from '../../src/model/request.js' */
/** @import { SimulatedDeal, SimulatorResponse } from '../../src/model/response.js' */
/** @import { DealPrices } from '../../src/report/html/tape-prices.js' */

/**
 * Column names of a deal row: the response's deal fields, in its order, but `trades` (kept
 * apart). Named here rather than read off a deal, so that every report has the same columns
 * whatever order a deal's keys arrive in, a report of no deals included.
 */
export const DEAL_COLUMNS = /** @type {const} */ ([
  'open_time',
  'last_operation_time',
  'status',
  'token',
  'pnl_realized',
  'pnl_unrealized',
  'pnl_total',
  'roi_realized',
  'roi_total',
  'usd_slippage_loss',
  'usd_network_fee',
  'usd_bot_fee',
  'investment_amount',
  'trades_number',
  'closed_position',
  'special_tag',
]);

/** Column names of a trade row: the response's trade fields, in its order. */
export const TRADE_COLUMNS = /** @type {const} */ ([
  'type',
  'time',
  'usd_amount',
  'quantity',
  'usd_price',
  'usd_liquidity',
  'usd_buy_price_avg',
  'usd_invested',
  'slippage',
  'usd_network_fee',
  'usd_bot_fee',
]);

/** The PnL and fee chart's series that the report draws (not `pnl_unrealized` and `deal_indexes`). */
export const CHART_SERIES = /** @type {const} */ (['timestamps', 'pnl_total', 'pnl_realized', 'fee_sum', 'bot_fee']);

/**
 * What the report page draws from (a report file embeds it as JSON). Deals and trades travel as
 * rows under a list of column names (the field names once, not once per deal), with every value
 * exactly as in the response; the page reads them back by name.
 *
 * @typedef {object} SimulationReportData
 * @property {'simulation'} kind
 * @property {string} title
 * @property {SimulatorRequest | null} request The request that produced the response; null when it is not known.
 * @property {SimulatorResponse['summary']} summary
 * @property {Pick<SimulatorResponse['cumulative_pnl_and_fee_chart'], (typeof CHART_SERIES)[number]>} chart
 *   The series of {@link CHART_SERIES}.
 * @property {readonly string[]} deal_columns {@link DEAL_COLUMNS}
 * @property {SimulatedDeal['token'][]} tokens The deals' tokens, each once: a deal row's `token` is an index into it.
 * @property {readonly string[]} trade_columns {@link TRADE_COLUMNS}
 * @property {unknown[][]} deals A row of {@link DEAL_COLUMNS} a deal.
 * @property {unknown[][][]} trades Each deal's trades as rows of {@link TRADE_COLUMNS}, by deal index.
 * @property {Record<string, number> | null} skipped
 *   Leader swaps not copied, counted by reason; null when the response has no skip log.
 * @property {(DealPrices | null)[] | null} prices
 *   Per deal, the tape's prices over its life; null when the data are made without the tape.
 * @property {number | null} window_end
 *   The request's `window_end` (its `to_date`'s last second); null without the request.
 * @property {ChartEnd | null} chart_end
 *   The chart's point at `window_end`: the summary's figures, so the curves end at the headline
 *   PnL; null without the request or a trade, or when the last trade is at `window_end`.
 * @property {SimulatorResponse['copier'] | null} copier The response's `copier` (model 3.0), or null.
 * @property {SimulatorResponse['leaders'] | null} leaders The response's `leaders` (model 3.0), or null.
 * @property {WalletCurve | null} wallet
 *   The copier's cash and equity over time; null when the run's points are not at hand (a saved
 *   response, the service's answer) or the response has no `copier`.
 * @property {RiskFigures} risk
 */

/**
 * @typedef {object} ChartEnd
 * @property {number} time
 * @property {number} pnl_total
 * @property {number} pnl_realized
 * @property {number} fee_sum
 * @property {number} bot_fee
 */

/**
 * The copier's cash and equity after each change of cash (the engine's points), with the
 * starting balance at `window_start` before them and the response's ending cash and equity at
 * `window_end` after them, when the request gives the window.
 *
 * @typedef {object} WalletCurve
 * @property {number[]} times
 * @property {number[]} cash
 * @property {number[]} equity
 */

/**
 * The figures a trader checks first. The drawdown is the copier's equity drawdown when the
 * response has `copier`, else that of `pnl_total` over the chart (its end point included) below
 * its best so far, counting from 0. Win rate and profit factor are over the closed deals.
 *
 * @typedef {object} RiskFigures
 * @property {number} max_drawdown USD.
 * @property {number | null} max_drawdown_percent Of the equity's peak; null without a starting balance.
 * @property {'equity' | 'pnl_total'} drawdown_of
 * @property {number} closed_deals
 * @property {number} won Closed deals with `pnl_total` above 0.
 * @property {number} lost Closed deals with `pnl_total` below 0.
 * @property {number | null} win_rate `100 × won / closed_deals`; null without a closed deal.
 * @property {number | null} profit_factor
 *   The closed deals' gains over their losses (`Σ pnl_total > 0` / `|Σ pnl_total < 0|`); null
 *   without a losing closed deal.
 */

/**
 * The report data of a simulator response.
 *
 * @param {object} inputs
 * @param {string} inputs.title
 * @param {SimulatorRequest | null} inputs.request
 * @param {SimulatorResponse} inputs.response
 * @param {(DealPrices | null)[] | null} inputs.prices Per deal, the tape's prices; null without the tape.
 * @param {readonly number[] | null} [inputs.copierPoints]
 *   The run's (time, cash, equity) after each change of cash, three numbers a point; null or
 *   left out when the run is not at hand.
 * @returns {SimulationReportData}
 */
export function simulationData({ title, request, response, prices, copierPoints = null }) {
  /** @type {SimulatedDeal['token'][]} */
  const tokens = [];
  /** @type {Map<string, number>} */
  const tokenIndex = new Map();
  const deals = response.deals.map((deal) =>
    DEAL_COLUMNS.map((column) => {
      if (column !== 'token') return deal[column];
      let index = tokenIndex.get(deal.token.address);
      if (index === undefined) tokenIndex.set(deal.token.address, (index = tokens.push(deal.token) - 1));
      return index;
    }),
  );
  /** @type {Record<string, number> | null} */
  let skipped = null;
  if (response.skipped_copies !== undefined) {
    skipped = {};
    for (const s of response.skipped_copies) skipped[s.reason] = (skipped[s.reason] ?? 0) + 1;
  }
  const chart = response.cumulative_pnl_and_fee_chart;
  const window = requestWindowOf(request);
  return {
    kind: 'simulation',
    title,
    request,
    summary: response.summary,
    chart: /** @type {SimulationReportData['chart']} */ (
      Object.fromEntries(CHART_SERIES.map((name) => [name, chart[name]]))
    ),
    deal_columns: DEAL_COLUMNS,
    tokens,
    trade_columns: TRADE_COLUMNS,
    deals,
    trades: response.deals.map((deal) => deal.trades.map((trade) => TRADE_COLUMNS.map((column) => trade[column]))),
    skipped,
    prices,
    window_end: window === null ? null : window.end,
    chart_end: chartEnd(response, window),
    copier: response.copier ?? null,
    leaders: response.leaders ?? null,
    wallet: walletCurve(response, window, copierPoints),
    risk: riskFigures(response),
  };
}

/**
 * The window of a request, `window_start` to `window_end` in seconds (the model's 1.2), or null.
 *
 * @param {Pick<SimulatorRequest, 'from_date' | 'to_date'> | null} request
 * @returns {{ start: number, end: number } | null}
 */
export function requestWindowOf(request) {
  if (request === null) return null;
  const day = (/** @type {string} */ date) => Date.parse(`${date}T00:00:00Z`) / 1000;
  const start = day(request.from_date);
  const end = day(request.to_date) + 86_399;
  return Number.isFinite(start) && Number.isFinite(end) ? { start, end } : null;
}

/**
 * @param {SimulatorResponse} response
 * @param {{ start: number, end: number } | null} window
 * @returns {ChartEnd | null}
 */
function chartEnd(response, window) {
  const times = response.cumulative_pnl_and_fee_chart.timestamps;
  const last = times[times.length - 1];
  if (window === null || last === undefined || last >= window.end) return null;
  const s = response.summary;
  return {
    time: window.end,
    pnl_total: s.pnl_total,
    pnl_realized: s.pnl_realized,
    fee_sum: s.network_fees + s.bot_fees,
    bot_fee: s.bot_fees,
  };
}

/**
 * @param {SimulatorResponse} response
 * @param {{ start: number, end: number } | null} window
 * @param {readonly number[] | null} points
 * @returns {WalletCurve | null}
 */
function walletCurve(response, window, points) {
  const copier = response.copier;
  if (copier === undefined || points === null) return null;
  /** @type {WalletCurve} */
  const curve = { times: [], cash: [], equity: [] };
  const add = (/** @type {number} */ time, /** @type {number} */ cash, /** @type {number} */ equity) => {
    curve.times.push(time);
    curve.cash.push(cash);
    curve.equity.push(equity);
  };
  const at = (/** @type {number} */ i) => /** @type {number} */ (points[i]);
  const balance = copier.starting_balance ?? 0;
  if (window !== null && (points.length === 0 || at(0) > window.start)) add(window.start, balance, balance);
  for (let i = 0; i + 2 < points.length; i += 3) add(at(i), at(i + 1), at(i + 2));
  const lastTime = curve.times[curve.times.length - 1];
  if (window !== null && lastTime !== undefined && lastTime < window.end) {
    // Nothing changes cash after the last point; the equity at the end is the headline's:
    // `ending_equity − balance = pnl_total − failed_transaction_fees` (copier-wallet.md 7).
    const cash = copier.ending_cash ?? /** @type {number} */ (curve.cash[curve.cash.length - 1]);
    const equity = copier.ending_equity ?? balance + response.summary.pnl_total - copier.failed_transaction_fees;
    add(window.end, cash, equity);
  }
  return curve;
}

/**
 * The risk figures of a response (see {@link RiskFigures}).
 *
 * @param {Pick<SimulatorResponse, 'summary' | 'cumulative_pnl_and_fee_chart' | 'copier'> & {
 *   deals: readonly Pick<SimulatedDeal, 'status' | 'pnl_total'>[] }} response
 * @returns {RiskFigures}
 */
export function riskFigures(response) {
  let won = 0;
  let lost = 0;
  let gains = 0;
  let losses = 0;
  let closed = 0;
  for (const deal of response.deals) {
    if (deal.status !== 'closed') continue;
    closed++;
    if (deal.pnl_total > 0) {
      won++;
      gains += deal.pnl_total;
    } else if (deal.pnl_total < 0) {
      lost++;
      losses -= deal.pnl_total;
    }
  }
  const shared = {
    closed_deals: closed,
    won,
    lost,
    win_rate: closed === 0 ? null : (100 * won) / closed,
    profit_factor: lost === 0 ? null : gains / losses,
  };
  const copier = response.copier;
  if (copier !== undefined && copier !== null) {
    const { max_drawdown, max_drawdown_percent } = copier;
    return { max_drawdown, max_drawdown_percent, drawdown_of: 'equity', ...shared };
  }
  let best = 0;
  let deepest = 0;
  for (const pnl of [...response.cumulative_pnl_and_fee_chart.pnl_total, response.summary.pnl_total]) {
    best = Math.max(best, pnl);
    deepest = Math.max(deepest, best - pnl);
  }
  return { max_drawdown: deepest, max_drawdown_percent: null, drawdown_of: 'pnl_total', ...shared };
}
