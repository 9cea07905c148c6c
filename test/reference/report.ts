/**
 * Deal results (spec 4), summary (5) and charts (6) of the reference model, computed from the
 * finished replay; and the conversion to the 200 response body (interface 4.1, 2.7, 2.8), with
 * the members of strategy-extensions 7 and copier-wallet 7.
 */
import { D, HUNDRED, ONE, ZERO, num, roundHalfAwayFromZero, sum } from './decimal.js';
import { addressKey, type Network, type Request, type Tape } from './inputs.js';
import { dealInvested, dealIsOpen, dealQty, dealRealized, type ChartPoint, type Deal, type Trade } from './deal.js';
import type { Wallet } from './wallet.js';
import { copierBody, leadersBody } from './wallet-report.js';

/** S-7 and copier-wallet 7: the reasons a leader swap inside the window was not copied. */
export type SkipReason =
  | 'dupe_limit'
  | 'leader_buy_too_small'
  | 'liquidity_too_low'
  | 'token_too_old'
  | 'position_full'
  | 'no_open_deal'
  | 'no_lot'
  | 'after_window'
  | 'insufficient_balance'
  | 'max_open_deals'
  | 'failed_transaction'
  | 'slippage_exceeded';

/**
 * S-7: one entry of skipped_copies: when the copy was decided, the leader swap as spelled, why;
 * and the leader's index in `wallets` (copier-wallet 7's `leaders`, not written).
 */
export interface SkippedCopy {
  time: number;
  wallet: string;
  token: string;
  type: 'buy' | 'sell';
  reason: SkipReason;
  leader: number;
}

export interface ReplayResult {
  tape: Tape;
  request: Request;
  deals: Deal[]; // in opening order
  trades: Trade[]; // in execution order
  chart: ChartPoint[];
  priceAtWindowEnd: (tokenKey: string) => D;
  skipped: SkippedCopy[]; // every skip; written only with report_skipped (S-7)
  wallet: Wallet;
}

interface DealResult {
  deal: Deal;
  open_time: number;
  last_operation_time: number;
  status: 'open' | 'closed';
  investment_amount: D;
  pnl_realized: D;
  pnl_unrealized: D;
  pnl_total: D;
  roi_realized: D;
  roi_total: D;
  usd_slippage_loss: D;
  usd_network_fee: D;
  usd_bot_fee: D;
  trades_number: number;
  closed_position: D;
}

/** 4: the results of one deal at the end of the replay. */
function dealResult(deal: Deal, priceAtWindowEnd: (tokenKey: string) => D): DealResult {
  const first = deal.trades[0]!;
  const last = deal.trades[deal.trades.length - 1]!;
  const open = dealIsOpen(deal);
  const investment_amount = deal.bought_usd;
  const pnl_realized = dealRealized(deal);
  // 4: pnl_unrealized = qty × known price at window_end − usd_invested; 0 when closed
  const pnl_unrealized = open ? dealQty(deal).times(priceAtWindowEnd(deal.tokenKey)).minus(dealInvested(deal)) : ZERO;
  const pnl_total = pnl_realized.plus(pnl_unrealized);
  const soldQty = sum(deal.trades.filter((t) => t.type !== 'buy').map((t) => t.quantity));
  return {
    deal,
    open_time: first.time,
    last_operation_time: last.time,
    status: open ? 'open' : 'closed',
    investment_amount,
    pnl_realized,
    pnl_unrealized,
    pnl_total,
    roi_realized: HUNDRED.times(pnl_realized).dividedBy(investment_amount),
    roi_total: HUNDRED.times(pnl_total).dividedBy(investment_amount),
    usd_slippage_loss: sum(deal.trades.map((t) => t.slippage_loss)),
    usd_network_fee: sum(deal.trades.map((t) => t.usd_network_fee)),
    usd_bot_fee: sum(deal.trades.map((t) => t.usd_bot_fee)),
    trades_number: deal.trades.length,
    // 4: closed_position = 100 × (sold quantity) / bought_qty
    closed_position: HUNDRED.times(soldQty).dividedBy(deal.bought_qty),
  };
}

/** 5: R² of the least-squares line through (k, y_k); 0 for fewer than 2 points or SS_tot = 0. */
function linearityR2(ys: D[]): D {
  const n = ys.length;
  if (n < 2) return ZERO;
  const xs = ys.map((_, i) => new D(i + 1));
  const xMean = sum(xs).dividedBy(n);
  const yMean = sum(ys).dividedBy(n);
  const ssTot = sum(ys.map((y) => y.minus(yMean).pow(2)));
  if (ssTot.isZero()) return ZERO;
  const sxy = sum(xs.map((x, i) => x.minus(xMean).times(ys[i]!.minus(yMean))));
  const sxx = sum(xs.map((x) => x.minus(xMean).pow(2)));
  const slope = sxy.dividedBy(sxx);
  const intercept = yMean.minus(slope.times(xMean));
  const ssRes = sum(xs.map((x, i) => ys[i]!.minus(intercept.plus(slope.times(x))).pow(2)));
  return ONE.minus(ssRes.dividedBy(ssTot));
}

/** 6: the cumulative pnl_total after each deal of `deals`, each a sum from the first. */
function cumulativePnl(deals: DealResult[]): D[] {
  return deals.map((_, k) => sum(deals.slice(0, k + 1).map((r) => r.pnl_total)));
}

/** 4: token name and symbol from the metadata, null when unknown (matched like addresses, 1.1). */
function tokenMeta(tape: Tape, network: Network, tokenKey: string): { name: string | null; symbol: string | null } {
  for (const t of tape.tokens) {
    if (addressKey(network, t.address) === tokenKey) return { name: t.meta.name, symbol: t.meta.symbol };
  }
  return { name: null, symbol: null };
}

function tradeBody(t: Trade): Record<string, unknown> {
  return {
    type: t.type,
    time: t.time,
    usd_amount: num(t.usd_amount),
    quantity: num(t.quantity),
    usd_price: num(t.usd_price),
    usd_liquidity: t.usd_liquidity === null ? null : num(t.usd_liquidity),
    usd_buy_price_avg: num(t.usd_buy_price_avg),
    usd_invested: num(t.usd_invested),
    slippage: num(t.slippage),
    usd_network_fee: num(t.usd_network_fee),
    usd_bot_fee: num(t.usd_bot_fee),
  };
}

export function buildResponse(run: ReplayResult): Record<string, unknown> {
  // 4: deals ordered by open_time, ties by the order in which they opened
  const results = run.deals
    .map((d) => dealResult(d, run.priceAtWindowEnd))
    .sort((a, b) => a.open_time - b.open_time || a.deal.openSeq - b.deal.openSeq);
  const indexOf = (deal: Deal): number => results.findIndex((r) => r.deal === deal);

  // 5: closed deals in the order they closed (closing trade's time), ties: deal order
  const closed = results
    .filter((r) => r.status === 'closed')
    .sort((a, b) => a.last_operation_time - b.last_operation_time || indexOf(a.deal) - indexOf(b.deal));
  const openAtEnd = results.filter((r) => r.status === 'open');

  // 5: summary sums over all deals
  const pnl_realized = sum(results.map((r) => r.pnl_realized));
  const pnl_unrealized = sum(results.map((r) => r.pnl_unrealized));
  const pnl_total = sum(results.map((r) => r.pnl_total));
  const investment_amount = sum(results.map((r) => r.investment_amount));
  const positive = results.filter((r) => r.pnl_total.greaterThan(0)).map((r) => r.pnl_total);
  const top_deal_dominance =
    positive.length === 0 ? ZERO : HUNDRED.times(D.max(...results.map((r) => r.pnl_total))).dividedBy(sum(positive));
  const cumulativeClosed = cumulativePnl(closed);
  const summary = {
    pnl_total: num(pnl_total),
    pnl_realized: num(pnl_realized),
    pnl_unrealized: num(pnl_unrealized),
    roi_total: num(investment_amount.isZero() ? ZERO : HUNDRED.times(pnl_total).dividedBy(investment_amount)),
    roi_realized: num(investment_amount.isZero() ? ZERO : HUNDRED.times(pnl_realized).dividedBy(investment_amount)),
    bot_fees: num(sum(results.map((r) => r.usd_bot_fee))),
    network_fees: num(sum(results.map((r) => r.usd_network_fee))),
    linearity_r2_closed_deals: num(linearityR2(cumulativeClosed)),
    top_deal_dominance: num(top_deal_dominance),
    trading_volume: num(sum(run.trades.map((t) => t.usd_amount))),
    slippage_loss: num(sum(results.map((r) => r.usd_slippage_loss))),
    investment_amount: num(investment_amount),
    investment_amount_closed_deals: num(sum(closed.map((r) => r.investment_amount))),
    investment_amount_open_deals: num(sum(openAtEnd.map((r) => r.investment_amount))),
  };

  // 6: one point per follower trade, in execution order
  const cumulative_pnl_and_fee_chart = {
    pnl_realized: run.chart.map((p) => num(p.pnl_realized)),
    pnl_unrealized: run.chart.map((p) => num(p.pnl_unrealized)),
    pnl_total: run.chart.map((p) => num(p.pnl_total)),
    fee_sum: run.chart.map((p) => num(p.fee_sum)),
    bot_fee: run.chart.map((p) => num(p.bot_fee)),
    deal_indexes: run.chart.map((p) => indexOf(p.deal)),
    timestamps: run.chart.map((p) => p.timestamp),
  };
  // 6: one point per closed deal, closing order; cumulative pnl_total rounded half away from zero
  const cumulative_usd_closed_deals_chart = {
    values: cumulativeClosed.map((v) => num(roundHalfAwayFromZero(v))),
    timestamps: closed.map((r) => r.last_operation_time),
  };
  // 6: one point per deal open at the end, in deal order; timestamps = open_time
  const cumulative_usd_open_deals_chart = {
    values: cumulativePnl(openAtEnd).map((v) => num(roundHalfAwayFromZero(v))),
    timestamps: openAtEnd.map((r) => r.open_time),
  };

  const deals = results.map((r) => {
    const meta = tokenMeta(run.tape, run.request.network, r.deal.tokenKey);
    return {
      open_time: r.open_time,
      last_operation_time: r.last_operation_time,
      status: r.status,
      token: { address: r.deal.tokenAddress, name: meta.name, symbol: meta.symbol },
      pnl_realized: num(r.pnl_realized),
      pnl_unrealized: num(r.pnl_unrealized),
      pnl_total: num(r.pnl_total),
      roi_realized: num(r.roi_realized),
      roi_total: num(r.roi_total),
      usd_slippage_loss: num(r.usd_slippage_loss),
      usd_network_fee: num(r.usd_network_fee),
      usd_bot_fee: num(r.usd_bot_fee),
      investment_amount: num(r.investment_amount),
      trades_number: r.trades_number,
      closed_position: num(r.closed_position),
      special_tag: r.deal.special_tag,
      trades: r.deal.trades.map(tradeBody),
    };
  });

  const body: Record<string, unknown> = {
    summary,
    cumulative_pnl_and_fee_chart,
    cumulative_usd_closed_deals_chart,
    cumulative_usd_open_deals_chart,
    deals,
  };
  const strategy = run.request.strategy;
  // S-7: with report_skipped, one more top-level member (an empty array when nothing was skipped)
  if (strategy.report_skipped) {
    body['skipped_copies'] = run.skipped.map((s) => ({
      time: s.time,
      wallet: s.wallet,
      token: s.token,
      type: s.type,
      reason: s.reason,
    }));
  }
  // W-7: then `leaders` (report_leaders), then `copier`, each when asked for
  if (strategy.report_leaders) body['leaders'] = leadersBody(run);
  if (strategy.report_copier) body['copier'] = copierBody(run);
  return body;
}
