import { toJsonNumber } from '../numeric/decimal.js';
import type { SimulatedDeal, SimulatedTrade, SimulationSummary, SimulatorResponse, SkippedCopyJson } from '../model/response.js';
import type { ReplayResult, TradeRecord } from '../engine/replay.js';
import type { TradeLog } from '../engine/trade-log.js';
import type { TokenInfo } from '../engine/tape-index.js';
import { closedDealsChart, openDealsChart, pnlAndFeeChart } from './charts.js';
import { dealRatios, dealResults, type DealResult } from './deal-results.js';
import { summarize, type Summary } from './summary.js';

function tradeJson(t: TradeRecord): SimulatedTrade {
  return {
    type: t.type,
    time: t.time,
    usd_amount: t.usdAmount,
    quantity: t.quantity,
    usd_price: t.price,
    usd_liquidity: t.liquidity,
    usd_buy_price_avg: t.buyPriceAvg,
    usd_invested: t.invested,
    slippage: t.slippage,
    usd_network_fee: t.networkFee,
    usd_bot_fee: t.botFee,
  };
}

function dealJson(r: DealResult, token: TokenInfo, log: TradeLog): SimulatedDeal {
  const { deal } = r;
  const { roiRealized, roiTotal, closedPosition } = dealRatios(r);
  return {
    open_time: deal.openTime,
    last_operation_time: deal.lastOperationTime,
    status: deal.open ? 'open' : 'closed',
    token: { address: deal.tokenAddress, name: token.name, symbol: token.symbol },
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
    trades: log.rowsOf(deal.index).map((row) => tradeJson(log.get(row))),
  };
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
  readonly head: Omit<SimulatorResponse, 'deals' | 'skipped_copies'>;
  readonly dealCount: number;
  deal(i: number): SimulatedDeal;
  /** `skipped_copies`, after the deals, when the request's strategy asks for it; else null. */
  readonly skipped: readonly SkippedCopyJson[] | null;
}

/** The parts of the simulator's 200 body from a replay: deal results, summary and the three charts. */
export function responseParts(run: ReplayResult, tokens: readonly TokenInfo[]): ResponseParts {
  const results = dealResults(run);
  return {
    head: {
      summary: summaryJson(summarize(results, run.totals)),
      cumulative_pnl_and_fee_chart: pnlAndFeeChart(run.points),
      cumulative_usd_closed_deals_chart: closedDealsChart(results),
      cumulative_usd_open_deals_chart: openDealsChart(results),
    },
    dealCount: results.length,
    deal: (i) => dealJson(results[i]!, tokens[results[i]!.deal.tokenId]!, run.trades),
    skipped: run.skipped,
  };
}

/** The whole body from its parts. */
export function assembleResponse(parts: ResponseParts): SimulatorResponse {
  const deals = Array.from({ length: parts.dealCount }, (_, i) => parts.deal(i));
  return parts.skipped === null ? { ...parts.head, deals } : { ...parts.head, deals, skipped_copies: [...parts.skipped] };
}

/** Builds the simulator's 200 body from a replay: deal results, summary and the three charts. */
export function buildResponse(run: ReplayResult, tokens: readonly TokenInfo[]): SimulatorResponse {
  return assembleResponse(responseParts(run, tokens));
}
