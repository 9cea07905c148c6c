/**
 * The response members of copier-wallet 7: `leaders` (each leader's share of the result) and
 * `copier` (the copier's wallet), from the finished replay, in the members' order of its tables.
 */
import { D, HUNDRED, ZERO, num, sum } from './decimal.js';
import { dealIsOpen, dealQty } from './deal.js';
import type { ReplayResult } from './report.js';

/** W-7: one object per followed wallet, in the request's order. */
export function leadersBody(run: ReplayResult): Array<Record<string, unknown>> {
  return run.request.wallets.map((wallet, leader) => {
    const copiedBuys = run.trades.filter((t) => t.type === 'buy' && t.copied === leader);
    // a close_all sell counts for the leader whose sell it copied (`copied`)
    const copiedSells = run.trades.filter((t) => t.type === 'sell' && t.copied === leader);
    const investment = sum(copiedBuys.map((t) => t.usd_amount));
    // pnl_realized: over every sell, for the part x_L taken from its lot,
    // usd_amount × x_L / Q − basis_L − (usd_network_fee + usd_bot_fee) × x_L / Q; over every buy
    // that copied it, − (usd_network_fee + usd_bot_fee)
    const realized: D[] = [];
    for (const t of run.trades) {
      const fees = t.usd_network_fee.plus(t.usd_bot_fee);
      if (t.type === 'buy') {
        if (t.copied === leader) realized.push(fees.negated());
        continue;
      }
      for (const part of t.parts) {
        if (part.leader !== leader) continue;
        const received = t.usd_amount.times(part.x).dividedBy(t.quantity);
        realized.push(received.minus(part.basis).minus(fees.times(part.x).dividedBy(t.quantity)));
      }
    }
    const pnl_realized = sum(realized);
    // pnl_unrealized: over the deals open at the end, lot × known price at window_end − cost of its lot
    const unrealized: D[] = [];
    for (const deal of run.deals) {
      const lot = deal.lots.get(leader);
      if (!dealIsOpen(deal) || lot === undefined) continue;
      unrealized.push(lot.qty.times(run.priceAtWindowEnd(deal.tokenKey)).minus(lot.cost));
    }
    const pnl_unrealized = sum(unrealized);
    const failed_transaction_fees = sum(run.wallet.failed.filter((f) => f.leader === leader).map((f) => f.fee));
    const pnl_total = pnl_realized.plus(pnl_unrealized).minus(failed_transaction_fees);
    return {
      wallet,
      copied_buys: copiedBuys.length,
      copied_sells: copiedSells.length,
      // its swaps whose copy ended without a landed trade, for any reason skipped_copies names
      skipped: run.skipped.filter((s) => s.leader === leader).length,
      investment: num(investment),
      pnl_realized: num(pnl_realized),
      pnl_unrealized: num(pnl_unrealized),
      failed_transaction_fees: num(failed_transaction_fees),
      pnl_total: num(pnl_total),
      roi_total: num(investment.isZero() ? ZERO : HUNDRED.times(pnl_total).dividedBy(investment)),
    };
  });
}

/** W-7: the copier's wallet. */
export function copierBody(run: ReplayResult): Record<string, unknown> {
  const wallet = run.wallet;
  const B = wallet.startingBalance;
  // ending_equity = ending_cash + Σ over open deals (qty × known price at window_end)
  const held = sum(run.deals.filter(dealIsOpen).map((d) => dealQty(d).times(run.priceAtWindowEnd(d.tokenKey))));
  const endingEquity = wallet.cash.plus(held);
  // capital_required = max(0, max over the run of (B − cash)), B null read as 0
  const base = B ?? ZERO;
  const capital = D.max(ZERO, ...wallet.cashValues.map((cash) => base.minus(cash)));
  // max_drawdown = max over k of (P_k − E_k), P_k = max(E_0 … E_k); the percent 100 × (P_k − E_k) / P_k
  let peak = wallet.equities[0]!;
  let drawdown = ZERO;
  let drawdownPercent = ZERO;
  for (const equity of wallet.equities) {
    peak = D.max(peak, equity);
    drawdown = D.max(drawdown, peak.minus(equity));
    if (B !== null) drawdownPercent = D.max(drawdownPercent, HUNDRED.times(peak.minus(equity)).dividedBy(peak));
  }
  const sandwiched = run.trades.filter((t) => t.sandwich_loss !== null);
  return {
    starting_balance: B === null ? null : num(B),
    ending_cash: B === null ? null : num(wallet.cash),
    ending_equity: B === null ? null : num(endingEquity),
    roi_on_balance: B === null ? null : num(HUNDRED.times(endingEquity.minus(B)).dividedBy(B)),
    capital_required: num(capital),
    max_drawdown: num(drawdown),
    max_drawdown_percent: B === null ? null : num(drawdownPercent),
    failed_transactions: wallet.failed.length,
    failed_transaction_fees: num(sum(wallet.failed.map((f) => f.fee))),
    sandwiched_trades: sandwiched.length,
    sandwich_loss: num(sum(sandwiched.map((t) => t.sandwich_loss ?? ZERO))),
    skipped_for_cash: run.skipped.filter((s) => s.reason === 'insufficient_balance').length,
  };
}
