import { Decimal, HUNDRED, ONE, ZERO } from '../model/decimal.js';
import type { EngineOptions } from '../model/options.js';
import type { Network } from '../model/request.js';
import type { NativePriceSeries } from './native-prices.js';

/** A fill of a follower trade: what the pool gave, before fees (model 3.3). */
export interface Fill {
  readonly usdAmount: Decimal;
  readonly quantity: Decimal;
  /** Execution price, USD per token (of a sell: zero when the model does not print it). */
  readonly price: Decimal;
  /** Slippage in percent (zero when the model does not print it). */
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
 *
 * Divisions are the dearest decimal operation, so the formulas of model 3.3 are written in
 * equivalent forms with fewer of them: a sell divides once, into `1 / (L/2 + V)`
 * (`1 / (1 + s) = (L/2) / (L/2 + V)`, `s / (1 + s) = V / (L/2 + V)`), and what depends
 * only on the settings is computed once.
 */
export class ExecutionModel {
  /** `1 + s` with the slippage `s` used when no liquidity is known. */
  private readonly unknownOnePlusS: Decimal;
  /** Buy slippage in percent when no liquidity is known: `100 × s`. */
  private readonly unknownBuySlippage: Decimal;
  /** `1 / (1 + s)` and the sell slippage `100 × s / (1 + s)` when no liquidity is known. */
  private readonly unknownSellFactor: Decimal;
  private readonly unknownSellSlippage: Decimal;
  /** `base_fee_native + priority_fee + bribe`, native coin per transaction. */
  private readonly feeNative: Decimal;
  private readonly botFeeRate: Decimal | null;
  /** The last native price asked for and its network fee: prices change far less often than trades. */
  private lastNative: Decimal | null = null;
  private lastNetworkFee: Decimal = ZERO;

  constructor(
    network: Network,
    options: EngineOptions,
    priorityFee: number,
    bribe: number,
    includeBotFees: boolean,
    private readonly native: NativePriceSeries,
    /**
     * False when no trade is recorded (a summary): the fill's `price` of a sell and the
     * `slippage` percentages are only printed, so they are left at zero instead of computed.
     */
    private readonly printed = true,
  ) {
    const s = new Decimal(options.unknown_liquidity_slippage_percent).div(HUNDRED);
    this.unknownOnePlusS = ONE.plus(s);
    this.unknownBuySlippage = s.times(HUNDRED);
    this.unknownSellFactor = ONE.div(this.unknownOnePlusS);
    this.unknownSellSlippage = this.unknownBuySlippage.div(this.unknownOnePlusS);
    this.feeNative = new Decimal(options.base_fee_native[network]).plus(priorityFee).plus(bribe);
    this.botFeeRate = includeBotFees ? new Decimal(options.bot_fee_percent).div(HUNDRED) : null;
  }

  /** A buy of `usd` USD at reference price `p` against liquidity `liquidity` (null: unknown). */
  buy(usd: Decimal, p: Decimal, liquidity: Decimal | null): Fill {
    let price: Decimal;
    let slippage: Decimal;
    if (liquidity === null) {
      price = p.times(this.unknownOnePlusS);
      slippage = this.unknownBuySlippage;
    } else {
      const s = usd.times(TWO).div(liquidity); // A / (L/2)
      price = p.times(ONE.plus(s));
      slippage = this.printed ? s.times(HUNDRED) : ZERO;
    }
    const quantity = usd.div(price);
    return { usdAmount: usd, quantity, price, slippage, slippageLoss: usd.minus(quantity.times(p)) };
  }

  /** A sell of `quantity` tokens at reference price `p` against liquidity `liquidity`. */
  sell(quantity: Decimal, p: Decimal, liquidity: Decimal | null): Fill {
    const value = quantity.times(p);
    let factor: Decimal; // 1 / (1 + s)
    let slippage: Decimal;
    if (liquidity === null) {
      factor = this.unknownSellFactor;
      slippage = this.unknownSellSlippage;
    } else {
      const half = liquidity.times(HALF);
      const reciprocal = ONE.div(half.plus(value));
      factor = half.times(reciprocal);
      // 100 × s / (1 + s), precise when s is tiny
      slippage = this.printed ? value.times(reciprocal).times(HUNDRED) : ZERO;
    }
    const usdAmount = value.times(factor);
    const price = this.printed ? p.times(factor) : ZERO;
    return { usdAmount, quantity, price, slippage, slippageLoss: value.minus(usdAmount) };
  }

  /** Network and bot fees of a trade of `usdAmount` at time `t`. */
  fees(usdAmount: Decimal, t: number): Fees {
    const nativePrice = this.native.at(t);
    if (nativePrice !== this.lastNative) {
      this.lastNative = nativePrice;
      this.lastNetworkFee = this.feeNative.times(nativePrice);
    }
    return {
      network: this.lastNetworkFee,
      bot: this.botFeeRate === null ? ZERO : usdAmount.times(this.botFeeRate),
    };
  }
}

const HALF = new Decimal(0.5);
const TWO = new Decimal(2);
