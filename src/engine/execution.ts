import { Decimal, HUNDRED, ONE, toJsonNumber, ZERO } from '../numeric/decimal.js';
import { printedQuotient } from '../numeric/printed-double.js';
import type { EngineOptions } from '../model/options.js';
import type { Network } from '../model/request.js';
import { parseLiquidity, type Liquidity } from './liquidity.js';
import type { NativePriceSeries } from './native-prices.js';

/** A fill of a follower trade: what the pool gave, before fees (model 3.3). */
export interface Fill {
  readonly usdAmount: Decimal;
  readonly quantity: Decimal;
  /**
   * Execution price, USD per token, and slippage in percent: only printed, so they come as the
   * doubles the response prints (zero when no trade is recorded).
   */
  readonly price: number;
  readonly slippage: number;
  /**
   * The trade at the reference price `p`: `quantity × p` (of a sell, `V`). The slippage loss is
   * its gap to `usdAmount`; the deal sums both sides and takes the gap once.
   */
  readonly atReference: Decimal;
  /** A buy's execution price `p × (1 + s)`, exact (the slippage tolerance compares it); null for a sell. */
  readonly execution: Decimal | null;
}

/** A fill and its inputs: the USD amount of a buy or the tokens of a sell, the price and liquidity. */
interface MadeFill {
  readonly amount: Decimal;
  readonly p: Decimal;
  readonly known: Liquidity | null;
  readonly fill: Fill;
}

/** `made`'s fill if made of the same inputs (price and liquidity objects, the amount by value), else null. */
function sameFill(made: MadeFill | null, amount: Decimal, p: Decimal, known: Liquidity | null): Fill | null {
  if (made === null || p !== made.p || known !== made.known) return null;
  return amount === made.amount || amount.eq(made.amount) ? made.fill : null;
}

/** What an {@link ExecutionModel} is set up with: the network, the engine's options and the request's fee settings. */
export interface ExecutionSetup {
  readonly network: Network;
  readonly options: EngineOptions;
  /** The request's `priority_fee` and `bribe`, native coin per transaction. */
  readonly priorityFee: number;
  readonly bribe: number;
  /** The request's `include_bot_fees`. */
  readonly includeBotFees: boolean;
  /** The native coin's USD price over time, for the network fees. */
  readonly native: NativePriceSeries;
  /**
   * False when no trade is recorded (a summary): the fill's `price` and `slippage` are only
   * printed, so they are left at zero instead of computed. Default true.
   */
  readonly printed?: boolean;
}

/**
 * The execution model: constant-product slippage against a pool whose USD side holds `L / 2`,
 * with a fixed slippage when the liquidity is unknown, and the fees of a follower trade. The
 * replay loop asks it for fills and fees and knows none of these formulas.
 *
 * Divisions are the dearest decimal operation, so the formulas of model 3.3 are written in
 * equivalent forms with fewer of them: a sell divides once, `usd_amount = V × (L/2) / (L/2 + V)`
 * (`V / (1 + s)` with `s = V / (L/2)`), and what depends only on the settings is computed once.
 */
export class ExecutionModel {
  /** `1 + s` with the slippage `s` used when no liquidity is known. */
  private readonly unknownOnePlusS: Decimal;
  /** Buy slippage in percent when no liquidity is known, `100 × s`, as printed. */
  private readonly unknownBuySlippage: number;
  /** `1 / (1 + s)`, and the sell slippage `100 × s / (1 + s)` as printed, when no liquidity is known. */
  private readonly unknownSellFactor: Decimal;
  private readonly unknownSellSlippage: number;
  /**
   * The engine option `assumed_liquidity_usd` (model 1.2): the pool a trade of unknown liquidity
   * slips against; null: the flat percent. The trade record still prints the liquidity as unknown.
   */
  private readonly assumed: Liquidity | null;
  /** `base_fee_native + priority_fee + bribe`, native coin per transaction. */
  private readonly feeNative: Decimal;
  /** `base_fee_native + priority_fee`: what a failed transaction pays (copier's wallet 4; no bribe). */
  private readonly failedFeeNative: Decimal;
  /** `bot_fee_percent / 100`, or null when bot fees are not included. */
  readonly botFeeRate: Decimal | null;
  /**
   * The last trade amount whose bot fee was asked for, and that fee: a trade's fee is asked for
   * by the cash check, the trade record, the copier's cash and the leaders' shares, with the very
   * same amount.
   */
  private lastBotFeeUsd: Decimal | null = null;
  private lastBotFee: Decimal = ZERO;
  /** The last native price asked for and its network fee: prices change far less often than trades. */
  private lastNative: Decimal | null = null;
  private lastNetworkFee: Decimal = ZERO;
  /** The same for a failed transaction's fee. */
  private lastFailedNative: Decimal | null = null;
  private lastFailedFee: Decimal = ZERO;
  /**
   * The last buy and sell made and what they were made of: the followers of one walk with the
   * same settings (a sweep's) often make the same trade one after the other, and equal inputs
   * make an equal fill.
   */
  private lastBuy: MadeFill | null = null;
  private lastSell: MadeFill | null = null;
  private readonly native: NativePriceSeries;
  /** See {@link ExecutionSetup.printed}. */
  private readonly printed: boolean;

  constructor({ network, options, priorityFee, bribe, includeBotFees, native, printed = true }: ExecutionSetup) {
    this.native = native;
    this.printed = printed;
    const s = new Decimal(options.unknown_liquidity_slippage_percent).div(HUNDRED);
    this.unknownOnePlusS = ONE.plus(s);
    const buySlippage = s.times(HUNDRED);
    this.unknownBuySlippage = toJsonNumber(buySlippage);
    this.unknownSellFactor = ONE.div(this.unknownOnePlusS);
    this.unknownSellSlippage = toJsonNumber(buySlippage.div(this.unknownOnePlusS));
    this.assumed = options.assumed_liquidity_usd === null ? null : parseLiquidity(options.assumed_liquidity_usd);
    this.failedFeeNative = new Decimal(options.base_fee_native[network]).plus(priorityFee);
    this.feeNative = this.failedFeeNative.plus(bribe);
    this.botFeeRate = includeBotFees ? new Decimal(options.bot_fee_percent).div(HUNDRED) : null;
  }

  /** A buy of `usd` USD at reference price `p` against liquidity `liquidity` (null: unknown). */
  buy(usd: Decimal, p: Decimal, known: Liquidity | null): Fill {
    const same = sameFill(this.lastBuy, usd, p, known);
    if (same !== null) return same;
    const fill = this.makeBuy(usd, p, known);
    this.lastBuy = { amount: usd, p, known, fill };
    return fill;
  }

  private makeBuy(usd: Decimal, p: Decimal, known: Liquidity | null): Fill {
    const liquidity = known ?? this.assumed;
    let price: Decimal;
    let slippage = 0;
    if (liquidity === null) {
      price = p.times(this.unknownOnePlusS);
      slippage = this.unknownBuySlippage;
    } else {
      const s = usd.div(liquidity.half); // A / (L/2)
      price = p.times(ONE.plus(s));
      // Exact: a product by a power of ten moves the exponent.
      if (this.printed) slippage = toJsonNumber(s.times(HUNDRED));
    }
    const quantity = usd.div(price);
    return {
      usdAmount: usd,
      quantity,
      price: this.printed ? toJsonNumber(price) : 0,
      slippage,
      atReference: quantity.times(p),
      execution: price,
    };
  }

  /** A sell of `quantity` tokens at reference price `p` against liquidity `liquidity`. */
  sell(quantity: Decimal, p: Decimal, known: Liquidity | null): Fill {
    const same = sameFill(this.lastSell, quantity, p, known);
    if (same !== null) return same;
    const fill = this.makeSell(quantity, p, known);
    this.lastSell = { amount: quantity, p, known, fill };
    return fill;
  }

  private makeSell(quantity: Decimal, p: Decimal, known: Liquidity | null): Fill {
    const liquidity = known ?? this.assumed;
    const value = quantity.times(p);
    let usdAmount: Decimal;
    let slippage = 0;
    if (liquidity === null) {
      usdAmount = value.times(this.unknownSellFactor);
      slippage = this.unknownSellSlippage;
    } else {
      const pool = liquidity.half.plus(value); // (L/2) × (1 + s)
      usdAmount = value.times(liquidity.half).div(pool);
      // 100 × s / (1 + s) = 100 × V / (L/2 + V), precise when s is tiny
      if (this.printed) slippage = printedQuotient(value, pool, 100);
    }
    // The execution price usd_amount / Q.
    const price = this.printed ? printedQuotient(usdAmount, quantity, 1) : 0;
    return { usdAmount, quantity, price, slippage, atReference: value, execution: null };
  }

  /** `usd_bot_fee` of a trade of `usd` USD: `usd × bot_fee_percent / 100`, or 0 without bot fees. */
  botFee(usd: Decimal): Decimal {
    const rate = this.botFeeRate;
    if (rate === null) return ZERO;
    if (usd !== this.lastBotFeeUsd) {
      this.lastBotFeeUsd = usd;
      this.lastBotFee = usd.times(rate);
    }
    return this.lastBotFee;
  }

  /** What a failed attempt at time `t` pays: `(base_fee_native + priority_fee) × native price` (copier's wallet 4). */
  failedFee(t: number): Decimal {
    const nativePrice = this.native.at(t);
    if (nativePrice !== this.lastFailedNative) {
      this.lastFailedNative = nativePrice;
      this.lastFailedFee = this.failedFeeNative.times(nativePrice);
    }
    return this.lastFailedFee;
  }

  /** The network fee of a trade at time `t`. */
  networkFee(t: number): Decimal {
    const nativePrice = this.native.at(t);
    if (nativePrice !== this.lastNative) {
      this.lastNative = nativePrice;
      this.lastNetworkFee = this.feeNative.times(nativePrice);
    }
    return this.lastNetworkFee;
  }
}
