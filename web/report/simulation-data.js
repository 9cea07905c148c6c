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
 */

/**
 * The report data of a simulator response.
 *
 * @param {object} inputs
 * @param {string} inputs.title
 * @param {SimulatorRequest | null} inputs.request
 * @param {SimulatorResponse} inputs.response
 * @param {(DealPrices | null)[] | null} inputs.prices Per deal, the tape's prices; null without the tape.
 * @returns {SimulationReportData}
 */
export function simulationData({ title, request, response, prices }) {
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
  };
}
