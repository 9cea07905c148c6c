import { Decimal, toJsonNumber, ZERO, type DecimalInput } from '../numeric/decimal.js';
import { printedProduct, printedProductOfQuotient, printedQuotient } from '../numeric/printed-double.js';
import type { SpecialTag, TradeType } from '../model/response.js';
import type { Fill } from './execution.js';
import type { Liquidity } from './liquidity.js';
import { BOT_FEE, BUY_PRICE_AVG, INVESTED, LIQUIDITY, NETWORK_FEE, PRICE, QUANTITY, SLIPPAGE, USD_AMOUNT, type TradeLog } from './trade-log.js';

/**
 * Sums over the settled deals that the summary needs besides their PnL (model 5): the fees,
 * and the sides of the slippage loss and of the trading volume (see {@link Deal.settle}).
 */
export class DealTotals {
  networkFee: Decimal = ZERO;
  botFee: Decimal = ZERO;
  soldUsd: Decimal = ZERO;
  boughtAtReference: Decimal = ZERO;
  soldAtReference: Decimal = ZERO;
}

/**
 * The follower's position in one token (model section 3): one lot per leader, the deal's
 * accounting, and its trades when they are recorded. At most one deal per token is open.
 *
 * A trade adds to a few running sums; the results of model section 4 follow from them once, when
 * the deal is settled (equal forms of the model's sums over trades, see docs/model.md §14 (j)):
 * - `pnl_realized = sold_usd − sold_cost − Σ network fees − usd_bot_fee`, where `sold_cost` sums
 *   `quantity × usd_buy_price_avg` over the sells;
 * - `usd_bot_fee = rate × (bought_usd + sold_usd)`, the rate on every trade's `usd_amount`;
 * - `usd_slippage_loss = (bought_usd − Σ buys quantity × p) + (Σ sells V − sold_usd)`.
 * `usd_buy_price_avg` and `usd_invested` are the model's own quotient and product, made when a
 * sell, a dupe buy's cap or a printed trade needs them, and kept until a trade moves them.
 */
export class Deal {
  /** The lot of the leader whose buy opened the deal, and those of the others, if any. */
  private readonly firstLeader: number;
  private firstLot: Decimal = ZERO;
  private otherLeaders: number[] | null = null;
  private otherLots: Decimal[] | null = null;
  qty: Decimal = ZERO;
  boughtUsd: Decimal = ZERO;
  boughtQty: Decimal = ZERO;
  buys = 0;
  /** `pnl_realized`, made when the deal is settled: closed, or open at the window's end. */
  pnlRealized: Decimal = ZERO;
  // Printed only, made when the deal is settled if it records its trades.
  networkFee: Decimal = ZERO;
  botFee: Decimal = ZERO;
  slippageLoss: Decimal = ZERO;
  /** Tokens sold (printed only: kept when the deal records its trades). */
  soldQty: Decimal = ZERO;
  // Running sums until the deal is settled: over the sells their `usd_amount` and their cost
  // `quantity × usd_buy_price_avg`; what the trades were worth at their reference price `p`
  // (`Σ quantity × p` of the buys, `Σ V` of the sells).
  private soldUsd: Decimal = ZERO;
  private soldCost: Decimal = ZERO;
  private boughtAtReference: Decimal = ZERO;
  private soldAtReference: Decimal = ZERO;
  // The network fees paid. A fee stays the same until the native price moves, so trades in a row
  // with the same fee are counted, and the count multiplied out when the fee changes.
  private feesBefore: Decimal = ZERO;
  private feeUnit: Decimal = ZERO;
  private feeCount = 0;
  tradeCount = 0;
  /** The deal's rows in the trade log, when the replay keeps one. */
  readonly tradeRows: number[] = [];
  open = true;
  specialTag: SpecialTag = null;
  openTime: number;
  lastOperationTime: number;
  /** Time of the closing trade, when closed. */
  closeTime = -1;
  /**
   * `qty`, the known price's key (`PriceBook.priceKey`) and `invested` at the last valuation
   * (see `UnrealizedBook`).
   */
  valuedQty: Decimal = ZERO;
  valuedPriceKey: number | DecimalInput = -1;
  bookedInvested: Decimal = ZERO;
  /** The deal's slot in the `UnrealizedBook` while it is in the chart's sum, else -1. */
  slot = -1;
  /** `usd_buy_price_avg` and `usd_invested` as last made; null once a trade has moved them. */
  private avg: Decimal | null = null;
  private investedNow: Decimal | null = null;
  /** `feeUnit` as a trade record prints it (when the deal records its trades). */
  private printedFee = 0;

  constructor(
    /** Position in the response's `deals`: deals are numbered in the order they open. */
    readonly index: number,
    readonly tokenId: number,
    /**
     * The token's address as the swap that opened the deal spells it (on `eth` a tape may spell
     * one token in several cases; docs/model.md §14 (b)).
     */
    readonly tokenAddress: string,
    /** The leader whose buy opens the deal. */
    leader: number,
    time: number,
    /** `bot_fee_percent / 100`, or null when bot fees are not included. */
    private readonly botFeeRate: Decimal | null,
    /** Where the trades are recorded; null when only the deal's sums are wanted (a summary). */
    private readonly log: TradeLog | null,
    /**
     * True when the PnL chart values the deal after every trade: it makes `usd_buy_price_avg` and
     * `usd_invested` anyway, so a record prints them from the decimals.
     */
    private readonly valuedAfterTrades = false,
  ) {
    this.firstLeader = leader;
    this.openTime = time;
    this.lastOperationTime = time;
  }

  /** `usd_buy_price_avg = bought_usd / bought_qty`. */
  get buyPriceAvg(): Decimal {
    return (this.avg ??= this.boughtUsd.div(this.boughtQty));
  }

  /** `usd_invested = qty × usd_buy_price_avg`: cost of what is held, fees excluded. */
  get invested(): Decimal {
    return (this.investedNow ??= this.qty.isZero() ? ZERO : this.qty.times(this.buyPriceAvg));
  }

  /**
   * Settles the deal's books once it has closed, or at the window's end: makes `pnl_realized`
   * (and the printed fee and slippage sums), adds the deal's sums to `totals` and lets go of the
   * running sums. A closed deal also lets go of its lots: it waits for the response with a
   * handful of numbers, so a long run holds little per closed deal and leaves little for the
   * garbage collector to copy.
   */
  settle(totals: DealTotals): void {
    const networkFee = this.networkFeesPaid();
    const botFee = this.botFeeRate === null ? ZERO : this.boughtUsd.plus(this.soldUsd).times(this.botFeeRate);
    this.pnlRealized = this.soldUsd.minus(this.soldCost).minus(networkFee).minus(botFee);
    totals.networkFee = totals.networkFee.plus(networkFee);
    if (!botFee.isZero()) totals.botFee = totals.botFee.plus(botFee);
    totals.soldUsd = totals.soldUsd.plus(this.soldUsd);
    totals.boughtAtReference = totals.boughtAtReference.plus(this.boughtAtReference);
    totals.soldAtReference = totals.soldAtReference.plus(this.soldAtReference);
    if (this.log !== null) {
      this.networkFee = networkFee;
      this.botFee = botFee;
      this.slippageLoss = this.boughtUsd.minus(this.boughtAtReference).plus(this.soldAtReference.minus(this.soldUsd));
    }
    this.soldUsd = ZERO;
    this.soldCost = ZERO;
    this.boughtAtReference = ZERO;
    this.soldAtReference = ZERO;
    this.feesBefore = ZERO;
    this.feeUnit = ZERO;
    this.feeCount = 0;
    if (!this.open) {
      this.emptyLots();
      this.avg = ZERO;
      this.investedNow = ZERO;
      this.valuedQty = ZERO;
      this.valuedPriceKey = -1;
      this.bookedInvested = ZERO;
    }
  }

  /** Tokens held in the lot of leader `leader` (0 when it has none). */
  lot(leader: number): Decimal {
    if (leader === this.firstLeader) return this.firstLot;
    const slot = this.otherLeaders === null ? -1 : this.otherLeaders.indexOf(leader);
    return slot < 0 ? ZERO : this.otherLots![slot]!;
  }

  /** Records a buy copied from leader `leader`. */
  addBuy(leader: number, time: number, fill: Fill, liquidity: Liquidity | null, networkFee: Decimal): void {
    this.changeLot(leader, fill.quantity);
    this.boughtUsd = this.boughtUsd.plus(fill.usdAmount);
    this.boughtQty = this.boughtQty.plus(fill.quantity);
    this.boughtAtReference = this.boughtAtReference.plus(fill.atReference);
    this.avg = null;
    this.buys++;
    this.record('buy', time, fill, liquidity, networkFee);
  }

  /**
   * Records a sell of `fill.quantity` tokens and gives its cost, `quantity × usd_buy_price_avg`.
   * With `leader` set, they come out of that leader's lot; with null, the whole position is sold
   * (close_all and time-fix) and every lot empties.
   */
  addSell(type: TradeType, leader: number | null, time: number, fill: Fill, liquidity: Liquidity | null, networkFee: Decimal): Decimal {
    if (leader === null) {
      this.emptyLots();
      this.investedNow = null;
    } else {
      this.changeLot(leader, fill.quantity.neg());
    }
    const cost = fill.quantity.times(this.buyPriceAvg);
    this.soldUsd = this.soldUsd.plus(fill.usdAmount);
    this.soldCost = this.soldCost.plus(cost);
    this.soldAtReference = this.soldAtReference.plus(fill.atReference);
    if (this.log !== null) this.soldQty = this.soldQty.plus(fill.quantity);
    this.record(type, time, fill, liquidity, networkFee);
    return cost;
  }

  /** Marks the deal closed by its last trade. */
  close(tag: SpecialTag): void {
    this.open = false;
    this.specialTag = tag;
    this.closeTime = this.lastOperationTime;
  }

  /** Every lot, and so `qty`, to zero. */
  private emptyLots(): void {
    this.firstLot = ZERO;
    this.otherLeaders = null;
    this.otherLots = null;
    this.qty = ZERO;
  }

  /**
   * Adds `change` to a leader's lot; `qty` stays the sum of the lots (0 exactly when all are),
   * added in the order the deal first copied each leader (docs/model.md §14 (g)).
   */
  private changeLot(leader: number, change: Decimal): void {
    this.investedNow = null;
    if (leader === this.firstLeader) {
      this.firstLot = this.firstLot.plus(change);
    } else {
      const leaders = (this.otherLeaders ??= []);
      const lots = (this.otherLots ??= []);
      const slot = leaders.indexOf(leader);
      if (slot < 0) {
        leaders.push(leader);
        lots.push(change);
      } else {
        lots[slot] = lots[slot]!.plus(change);
      }
    }
    let sum = this.firstLot;
    if (this.otherLots !== null) for (const lot of this.otherLots) sum = sum.plus(lot);
    this.qty = sum;
  }

  /** The network fees of the trades so far. */
  private networkFeesPaid(): Decimal {
    if (this.feeCount === 0) return this.feesBefore;
    return this.feesBefore.plus(this.feeCount === 1 ? this.feeUnit : this.feeUnit.times(this.feeCount));
  }

  private record(type: TradeType, time: number, fill: Fill, liquidity: Liquidity | null, networkFee: Decimal): void {
    if (networkFee !== this.feeUnit) {
      this.feesBefore = this.networkFeesPaid();
      this.feeUnit = networkFee;
      this.feeCount = 0;
      if (this.log !== null) this.printedFee = toJsonNumber(networkFee);
    }
    this.feeCount++;
    this.lastOperationTime = time;
    this.tradeCount++;
    if (this.log !== null) this.tradeRows.push(this.print(type, time, fill, liquidity));
  }

  /**
   * Writes the trade to the log as the response prints it. `usd_buy_price_avg` and
   * `usd_invested` are printed from the decimals when a sell, a cap or the chart's valuation
   * makes them, else straight from the running sums (see `numeric/printed-double.ts`), so a buy
   * costs no 40-digit division only to be printed.
   */
  private print(type: TradeType, time: number, fill: Fill, liquidity: Liquidity | null): number {
    const log = this.log!;
    const n = log.start(type, time);
    const row = log.chunk;
    const at = log.at;
    row[at + USD_AMOUNT] = toJsonNumber(fill.usdAmount);
    row[at + QUANTITY] = toJsonNumber(fill.quantity);
    row[at + PRICE] = fill.price;
    row[at + LIQUIDITY] = liquidity === null ? NaN : liquidity.printed;
    if (this.valuedAfterTrades && this.open) {
      row[at + BUY_PRICE_AVG] = toJsonNumber(this.buyPriceAvg);
      row[at + INVESTED] = toJsonNumber(this.invested);
    } else this.printPosition(row, at);
    row[at + SLIPPAGE] = fill.slippage;
    row[at + NETWORK_FEE] = this.printedFee;
    const rate = this.botFeeRate;
    // The model's product, rounded to 40 digits. The rate (`bot_fee_percent / 100`) is a short decimal,
    // so the product is a cheap one (a power of ten only moves the exponent).
    row[at + BOT_FEE] = rate === null ? 0 : toJsonNumber(fill.usdAmount.times(rate));
    return n;
  }

  /** `usd_buy_price_avg` and `usd_invested` into the row at `at`, without making the decimals that no one else needs. */
  private printPosition(row: number[], at: number): void {
    const avg = this.avg;
    row[at + BUY_PRICE_AVG] = avg !== null ? toJsonNumber(avg) : printedQuotient(this.boughtUsd, this.boughtQty, 1);
    const invested = this.investedNow;
    if (invested !== null) row[at + INVESTED] = toJsonNumber(invested);
    else if (this.qty.isZero()) row[at + INVESTED] = 0;
    else row[at + INVESTED] = avg !== null ? printedProduct(this.qty, avg) : printedProductOfQuotient(this.qty, this.boughtUsd, this.boughtQty);
  }
}
