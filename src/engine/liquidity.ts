import { Decimal, HALF, toJsonNumber, type DecimalInput } from '../numeric/decimal.js';

/**
 * A token's known liquidity: `L`, the USD value of its pool (both sides), and the pool's USD
 * side `L / 2`, which every slippage formula divides by (made once per liquidity value).
 */
export interface Liquidity {
  readonly usd: Decimal;
  readonly half: Decimal;
  /** `usd` as a trade record prints it. */
  readonly printed: number;
}

/** The liquidity a swap's `usd_liquidity` gives. */
export function parseLiquidity(raw: DecimalInput): Liquidity {
  return new ParsedLiquidity(new Decimal(raw));
}

/**
 * A class, not an object literal: V8 may allocate a literal's objects in the old generation once
 * many of them were seen to survive (pretenuring by allocation site), and a liquidity dead there
 * keeps its two young decimals alive through every scavenge until a full collection.
 */
class ParsedLiquidity implements Liquidity {
  readonly half: Decimal;
  readonly printed: number;

  constructor(readonly usd: Decimal) {
    this.half = usd.times(HALF);
    this.printed = toJsonNumber(usd);
  }
}
