import { toJsonNumber } from '../numeric/decimal.js';
import type {
  CopierResultJson,
  LeaderResultJson,
  PnlAndFeeChart,
  SimulatedDeal,
  SimulatedTrade,
  SimulationSummary,
  SimulatorResponse,
  SkippedCopyJson,
} from '../model/response.js';
import type { CopierResult } from '../engine/replay.js';
import type { LeaderBook } from '../engine/leader-book.js';
import { HUNDRED } from '../numeric/decimal.js';
import type { ReplayResult } from '../engine/replay.js';
import type { TradeLog, TradeTable } from '../engine/trade-log.js';
import { tradeJson } from './trade-json.js';
import type { Deal } from '../engine/deal.js';
import type { TokenInfo } from '../engine/tape-index.js';
import { closedDealsChart, openDealsChart, pnlAndFeeChart } from './charts.js';
import { dealRatios, dealResults, type DealResult } from './deal-results.js';
import { summarize, type Summary } from './summary.js';

/** Deal `r` as the response's JSON; with `log` null, its `trades` left empty. */
function dealJson(r: DealResult, token: TokenInfo, log: TradeLog | null): SimulatedDeal {
  const { deal } = r;
  const { roiRealized, roiTotal, closedPosition } = dealRatios(r);
  return {
    open_time: deal.openTime,
    last_operation_time: deal.lastOperationTime,
    status: deal.open ? 'open' : 'closed',
    token: dealToken(deal, token),
    pnl_realized: toJsonNumber(r.pnlRealized),
    pnl_unrealized: toJsonNumber(r.pnlUnrealized),
    pnl_total: toJsonNumber(r.pnlTotal),
    roi_realized: toJsonNumber(roiRealized),
    roi_total: toJsonNumber(roiTotal),
    usd_slippage_loss: toJsonNumber(deal.slippageLoss),
    usd_network_fee: toJsonNumber(deal.networkFee),
    usd_bot_fee: toJsonNumber(deal.botFee),
    investment_amount: toJsonNumber(deal.boughtUsd),
    trades_number: deal.tradeCount,
    closed_position: toJsonNumber(closedPosition),
    special_tag: deal.specialTag,
    trades: log === null ? [] : dealTrades(deal, log),
  };
}

function dealToken(deal: Deal, token: TokenInfo): SimulatedDeal['token'] {
  return { address: deal.tokenAddress, name: token.name, symbol: token.symbol };
}

function dealTrades(deal: Deal, log: TradeLog): SimulatedTrade[] {
  return log.rowsOf(deal.index).map((row) => tradeJson(log.get(row)));
}

/** The response's `summary` as JSON numbers. */
export function summaryJson(s: Summary): SimulationSummary {
  return {
    pnl_total: toJsonNumber(s.pnlTotal),
    pnl_realized: toJsonNumber(s.pnlRealized),
    pnl_unrealized: toJsonNumber(s.pnlUnrealized),
    roi_total: toJsonNumber(s.roiTotal),
    roi_realized: toJsonNumber(s.roiRealized),
    bot_fees: toJsonNumber(s.botFees),
    network_fees: toJsonNumber(s.networkFees),
    linearity_r2_closed_deals: toJsonNumber(s.linearityR2ClosedDeals),
    top_deal_dominance: toJsonNumber(s.topDealDominance),
    trading_volume: toJsonNumber(s.tradingVolume),
    slippage_loss: toJsonNumber(s.slippageLoss),
    investment_amount: toJsonNumber(s.investmentAmount),
    investment_amount_closed_deals: toJsonNumber(s.investmentAmountClosedDeals),
    investment_amount_open_deals: toJsonNumber(s.investmentAmountOpenDeals),
  };
}

/**
 * The simulator's 200 body in parts: everything but the deals, and the deals made one at a time
 * on demand. A response with a million trades is written from this without its deals ever
 * being in memory as JSON all at once (see `writeResponseParts`).
 */
export interface ResponseParts {
  readonly head: Omit<SimulatorResponse, 'deals' | 'skipped_copies' | 'leaders' | 'copier'>;
  readonly dealCount: number;
  deal(i: number): SimulatedDeal;
  /** Deal `i` as {@link deal} gives it, but its `trades` empty: for a writer given their text apart. */
  dealWithoutTrades(i: number): SimulatedDeal;
  /** The trades of every deal, deal after deal, as the rows a thread prints them from (made once). */
  tradeTable(): TradeTable;
  /** The points of `cumulative_pnl_and_fee_chart` as rows (`PointLog.table`), for a thread that prints it. */
  chartPoints(): Float64Array;
  /** Deal `i`'s token and trades alone, as {@link deal} gives them, for the checks that read only those. */
  dealToken(i: number): SimulatedDeal['token'];
  dealTrades(i: number): SimulatedTrade[];
  /** `skipped_copies`, after the deals, when the request's strategy asks for it; else null. */
  readonly skipped: readonly SkippedCopyJson[] | null;
  /** `leaders` and `copier` (model 3.0), after `skipped_copies`, each when the request asks for it. */
  readonly tail: Pick<SimulatorResponse, 'leaders' | 'copier'>;
  /**
   * Not in the JSON: the copier's (time, cash, equity) after each change of cash, three numbers a
   * point, for the reports' equity chart; null without `copier` or when not asked for
   * (`ReplayControl.copierPoints`).
   */
  readonly copierPoints: readonly number[] | null;
}

/** The `leaders` member: each followed wallet's share, in the request's order (copier-wallet.md 7). */
export function leadersJson(book: LeaderBook, wallets: readonly string[]): LeaderResultJson[] {
  return book.shares.map((share, leader) => {
    const pnlTotal = share.pnlRealized.plus(share.pnlUnrealized).minus(share.failedTransactionFees);
    return {
      wallet: wallets[leader]!,
      copied_buys: share.copiedBuys,
      copied_sells: share.copiedSells,
      skipped: share.skipped,
      investment: toJsonNumber(share.investment),
      pnl_realized: toJsonNumber(share.pnlRealized),
      pnl_unrealized: toJsonNumber(share.pnlUnrealized),
      failed_transaction_fees: toJsonNumber(share.failedTransactionFees),
      pnl_total: toJsonNumber(pnlTotal),
      roi_total: share.investment.isZero() ? 0 : toJsonNumber(HUNDRED.times(pnlTotal).div(share.investment)),
    };
  });
}

/** The `copier` member: the copier's wallet over the run (copier-wallet.md 7). */
export function copierJson({ ledger, endingEquity }: CopierResult): CopierResultJson {
  const balance = ledger.startingBalance;
  const percent = ledger.drawdownPercent;
  return {
    starting_balance: balance === null ? null : toJsonNumber(balance),
    ending_cash: balance === null ? null : toJsonNumber(ledger.cash),
    ending_equity: endingEquity === null ? null : toJsonNumber(endingEquity),
    roi_on_balance:
      balance === null || endingEquity === null
        ? null
        : toJsonNumber(HUNDRED.times(endingEquity.minus(balance)).div(balance)),
    capital_required: toJsonNumber(ledger.capitalRequired),
    max_drawdown: toJsonNumber(ledger.maxDrawdown),
    max_drawdown_percent: percent === null ? null : toJsonNumber(percent),
    failed_transactions: ledger.failedTransactions,
    failed_transaction_fees: toJsonNumber(ledger.failedTransactionFees),
    sandwiched_trades: ledger.sandwichedTrades,
    sandwich_loss: toJsonNumber(ledger.sandwichLoss),
    skipped_for_cash: ledger.skippedForCash,
  };
}

/** The members after `skipped_copies` that a replay reports. */
function tailOf(run: ReplayResult, wallets: readonly string[]): Pick<SimulatorResponse, 'leaders' | 'copier'> {
  const tail: Pick<SimulatorResponse, 'leaders' | 'copier'> = {};
  if (run.leaders !== null) tail.leaders = leadersJson(run.leaders, wallets);
  if (run.copier !== null) tail.copier = copierJson(run.copier);
  return tail;
}

/** The parts of the simulator's 200 body from a replay: deal results, summary and the three charts. */
export function responseParts(run: ReplayResult, tokens: readonly TokenInfo[]): ResponseParts {
  const results = dealResults(run);
  let table: TradeTable | undefined;
  let head: ResponseParts['head'] | undefined;
  let pnlChart: PnlAndFeeChart | undefined;
  return {
    // Made when first read: a writer starts the thread that prints the response's bulk first. The
    // PnL chart, a point per trade, only when its member is read: that thread may print it.
    get head() {
      head ??= {
        summary: summaryJson(summarize(results, run.totals)),
        get cumulative_pnl_and_fee_chart() {
          return (pnlChart ??= pnlAndFeeChart(run.points));
        },
        cumulative_usd_closed_deals_chart: closedDealsChart(results),
        cumulative_usd_open_deals_chart: openDealsChart(results),
      };
      return head;
    },
    dealCount: results.length,
    deal: (i) => dealJson(results[i]!, tokens[results[i]!.deal.tokenId]!, run.trades),
    dealWithoutTrades: (i) => dealJson(results[i]!, tokens[results[i]!.deal.tokenId]!, null),
    // Made once: the warnings' checks and the thread that prints the trades both read it.
    tradeTable: () => (table ??= run.trades.table(results.map((r) => r.deal.index))),
    chartPoints: () => run.points.table(),
    dealToken: (i) => dealToken(results[i]!.deal, tokens[results[i]!.deal.tokenId]!),
    dealTrades: (i) => dealTrades(results[i]!.deal, run.trades),
    skipped: run.skipped,
    tail: tailOf(run, run.wallets),
    copierPoints: run.copier?.ledger.points ?? null,
  };
}

/** The whole body from its parts. */
export function assembleResponse(parts: ResponseParts): SimulatorResponse {
  const deals = Array.from({ length: parts.dealCount }, (_, i) => parts.deal(i));
  const body: SimulatorResponse =
    parts.skipped === null ? { ...parts.head, deals } : { ...parts.head, deals, skipped_copies: [...parts.skipped] };
  return { ...body, ...parts.tail };
}

/** Builds the simulator's 200 body from a replay: deal results, summary and the three charts. */
export function buildResponse(run: ReplayResult, tokens: readonly TokenInfo[]): SimulatorResponse {
  return assembleResponse(responseParts(run, tokens));
}
