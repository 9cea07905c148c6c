/**
 * The fill of a follower trade (spec 3.3) and of a sandwiched copy (copier-wallet 5): what a buy
 * of `A` USD or a sell of `Q` tokens gets at reference price `p`, as pure functions. Fees and
 * the deal's accounting are the replay's (model.ts).
 */
import { type D, HUNDRED, ONE, TWO } from './decimal.js';
import type { Options } from './inputs.js';

/** What a trade gets: the record's numbers that the fill decides, and its slippage loss. */
export interface Fill {
  usd_amount: D;
  quantity: D;
  usd_price: D; // the execution price
  slippage: D;
  slippage_loss: D;
  sandwich_loss: D | null; // copier-wallet 5, null when not sandwiched
}

/**
 * 3.3: s = X / (L/2); when L is null, L = assumed_liquidity_usd when that option is set (1.3),
 * else s = unknown_liquidity_slippage_percent / 100.
 */
export function slippageRate(x: D, L: D | null, options: Options): D {
  const liquidity = L ?? options.assumed_liquidity_usd;
  if (liquidity === null) return options.unknown_liquidity_slippage_percent.dividedBy(100);
  return x.dividedBy(liquidity.dividedBy(TWO));
}

/** 3.3 buy of A USD: execution price p × (1 + s), quantity A / (p × (1 + s)), loss A − quantity × p. */
export function buyFill(A: D, p: D, L: D | null, options: Options): Fill {
  const s = slippageRate(A, L, options);
  const quantity = A.dividedBy(p.times(ONE.plus(s)));
  return {
    usd_amount: A,
    quantity,
    usd_price: p.times(ONE.plus(s)),
    slippage: HUNDRED.times(s),
    slippage_loss: A.minus(quantity.times(p)),
    sandwich_loss: null,
  };
}

/** 3.3 sell of Q tokens: V = Q × p, usd_amount V / (1 + s), execution price usd_amount / Q, loss V − usd_amount. */
export function sellFill(Q: D, p: D, L: D | null, options: Options): Fill {
  const V = Q.times(p);
  const s = slippageRate(V, L, options);
  const usd_amount = V.dividedBy(ONE.plus(s));
  return {
    usd_amount,
    quantity: Q,
    usd_price: usd_amount.dividedBy(Q),
    slippage: HUNDRED.times(s).dividedBy(ONE.plus(s)),
    slippage_loss: V.minus(usd_amount),
    sandwich_loss: null,
  };
}

/**
 * Copier-wallet 5: a sandwiched buy of A USD at the worst price w its tolerance allows instead of
 * its fill price x: quantity A / w, slippage 100 × (w − p) / p, loss A − quantity × p, sandwich
 * loss (A / x − A / w) × p.
 */
export function sandwichedBuy(A: D, p: D, x: D, w: D): Fill {
  const quantity = A.dividedBy(w);
  return {
    usd_amount: A,
    quantity,
    usd_price: w,
    slippage: HUNDRED.times(w.minus(p)).dividedBy(p),
    slippage_loss: A.minus(quantity.times(p)),
    sandwich_loss: A.dividedBy(x).minus(A.dividedBy(w)).times(p),
  };
}

/**
 * Copier-wallet 5: a sandwiched sell of Q tokens at w instead of x: usd_amount Q × w, slippage
 * 100 × (p − w) / p, loss Q × p − usd_amount, sandwich loss Q × (x − w).
 */
export function sandwichedSell(Q: D, p: D, x: D, w: D): Fill {
  const usd_amount = Q.times(w);
  return {
    usd_amount,
    quantity: Q,
    usd_price: w,
    slippage: HUNDRED.times(p.minus(w)).dividedBy(p),
    slippage_loss: Q.times(p).minus(usd_amount),
    sandwich_loss: Q.times(x.minus(w)),
  };
}
