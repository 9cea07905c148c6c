import type { IndexedTape } from '../../engine/tape-index.js';
import type { SimulatorRequest } from '../../model/request.js';
import { SimulatedDealSchema, SimulatedTradeSchema, type SimulatedDeal, type SimulatorResponse } from '../../model/response.js';
import { dealPrices, type DealPrices } from './tape-prices.js';

/** Column names of a deal row: the response's deal fields but `trades` (apart: {@link SimulationReportData.trades}). */
export const DEAL_COLUMNS = (Object.keys(SimulatedDealSchema.shape) as (keyof typeof SimulatedDealSchema.shape)[]).filter(
  (name): name is Exclude<typeof name, 'trades'> => name !== 'trades',
);
/** Column names of a trade row: the response's trade fields, in order. */
export const TRADE_COLUMNS = Object.keys(SimulatedTradeSchema.shape) as (keyof typeof SimulatedTradeSchema.shape)[];

/**
 * What the report page draws from, embedded in the HTML file as JSON. Deals and trades travel as
 * rows under a list of column names (the field names once, not once per deal), with every value
 * exactly as in the response; the page reads them back by name.
 */
export interface SimulationReportData {
  readonly kind: 'simulation';
  readonly title: string;
  /** The request that produced the response; null when it is not known. */
  readonly request: SimulatorRequest | null;
  readonly summary: SimulatorResponse['summary'];
  /** The PnL and fee chart's series that are drawn (not `pnl_unrealized` and `deal_indexes`). */
  readonly chart: Pick<SimulatorResponse['cumulative_pnl_and_fee_chart'], (typeof CHART_SERIES)[number]>;
  readonly deal_columns: readonly string[];
  /** The deals' tokens, each once: a deal row's `token` is an index into this list. */
  readonly tokens: readonly SimulatedDeal['token'][];
  readonly trade_columns: readonly string[];
  readonly deals: readonly unknown[][];
  /** Each deal's trades as rows of {@link TRADE_COLUMNS}, by deal index. */
  readonly trades: readonly unknown[][][];
  /** Leader swaps not copied, counted by reason; null when the response has no skip log. */
  readonly skipped: Readonly<Record<string, number>> | null;
  /** Per deal, the tape's prices over its life; absent when the report is made without the tape. */
  readonly prices: readonly (DealPrices | null)[] | null;
}

const CHART_SERIES = ['timestamps', 'pnl_total', 'pnl_realized', 'fee_sum', 'bot_fee'] as const;

/** Options of {@link simulationReportData}. */
export interface SimulationReportInputs {
  readonly title: string;
  readonly response: SimulatorResponse;
  readonly request: SimulatorRequest | null;
  /** The tape the response was simulated on: for the price panel. */
  readonly tape: IndexedTape | null;
}

/** The report's data from a simulator response (and the tape, for each deal's price panel). */
export function simulationReportData({ title, response, request, tape }: SimulationReportInputs): SimulationReportData {
  const tokens: SimulatedDeal['token'][] = [];
  const tokenIndex = new Map<string, number>();
  const deals = response.deals.map((deal) =>
    DEAL_COLUMNS.map((column) => {
      if (column !== 'token') return deal[column];
      let index = tokenIndex.get(deal.token.address);
      if (index === undefined) tokenIndex.set(deal.token.address, (index = tokens.push(deal.token) - 1));
      return index;
    }),
  );
  let skipped: Record<string, number> | null = null;
  if (response.skipped_copies !== undefined) {
    skipped = {};
    for (const s of response.skipped_copies) skipped[s.reason] = (skipped[s.reason] ?? 0) + 1;
  }
  return {
    kind: 'simulation',
    title,
    request,
    summary: response.summary,
    chart: Object.fromEntries(CHART_SERIES.map((name) => [name, response.cumulative_pnl_and_fee_chart[name]])) as SimulationReportData['chart'],
    deal_columns: DEAL_COLUMNS,
    tokens,
    trade_columns: TRADE_COLUMNS,
    deals,
    trades: response.deals.map((deal) => deal.trades.map((trade) => TRADE_COLUMNS.map((c) => trade[c]))),
    skipped,
    prices: tape === null ? null : dealPrices(tape, response.deals, request?.wallets ?? []),
  };
}
