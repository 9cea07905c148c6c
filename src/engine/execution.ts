import { Decimal, HUNDRED, ONE, ZERO } from '../model/decimal.js';
import type { EngineOptions } from '../model/options.js';
import type { Network } from '../model/request.js';
import type { NativePriceSeries } from './native-prices.js';

/** A fill of a follower trade: what the pool gave, before fees (model 3.3). */
export interface Fill {
  readonly usdAmount: Decimal;
  readonly quantity: Decimal;
  /** Execution price, USD per token. */
  readonly price: Decimal;
  /** Slippage in percent. */
  readonly slippage: Decimal;
  /** USD lost to slippage against the reference price. */
  readonly slippageLoss: Decimal;
}

/** Fees of one follower trade. */
export interface Fees {
  readonly network: Decimal;
  readonly bot: Decimal;
}

/**
 * The execution model: constant-product slippage against a pool whose USD side holds `L / 2`,
 * with a fixed slippage when the liquidity is unknown, and the fees of a follower trade. The
 * replay loop asks it for fills and fees and knows none of these formulas.
 */
export class ExecutionModel {
  /** `s` used when no liquidity is known. */
  private readonly unknownS: Decimal;
  /** `base_fee_native + priority_fee + bribe`, native coin per transaction. */
  private readonly feeNative: Decimal;
  private readonly botFeeRate: Decimal | null;

  constructor(
    network: Network,
    options: EngineOptions,
    priorityFee: number,
    bribe: number,
    includeBotFees: boolean,
    private readonly native: NativePriceSeries,
  ) {
    this.unknownS = new Decimal(options.unknown_liquidity_slippage_percent).div(HUNDRED);
    this.feeNative = new Decimal(options.base_fee_native[network]).plus(priorityFee).plus(bribe);
    this.botFeeRate = includeBotFees ? new Decimal(options.bot_fee_percent).div(HUNDRED) : null;
  }

  private slippageRate(usd: Decimal, liquidity: Decimal | null): Decimal {
    return liquidity === null ? this.unknownS : usd.div(liquidity.div(2));
  }

  /** A buy of `usd` USD at reference price `p` against liquidity `liquidity` (null: unknown). */
  buy(usd: Decimal, p: Decimal, liquidity: Decimal | null): Fill {
    const s = this.slippageRate(usd, liquidity);
    const price = p.times(ONE.plus(s));
    const quantity = usd.div(price);
    return { usdAmount: usd, quantity, price, slippage: s.times(HUNDRED), slippageLoss: usd.minus(quantity.times(p)) };
  }

  /** A sell of `quantity` tokens at reference price `p` against liquidity `liquidity`. */
  sell(quantity: Decimal, p: Decimal, liquidity: Decimal | null): Fill {
    const value = quantity.times(p);
    const s = this.slippageRate(value, liquidity);
    const onePlusS = ONE.plus(s);
    const usdAmount = value.div(onePlusS);
    return {
      usdAmount,
      quantity,
      price: usdAmount.div(quantity),
      slippage: s.times(HUNDRED).div(onePlusS),
      slippageLoss: value.minus(usdAmount),
    };
  }

  /** Network and bot fees of a trade of `usdAmount` at time `t`. */
  fees(usdAmount: Decimal, t: number): Fees {
    return {
      network: this.feeNative.times(this.native.at(t)),
      bot: this.botFeeRate === null ? ZERO : usdAmount.times(this.botFeeRate),
    };
  }
}
