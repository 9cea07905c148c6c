import { type Decimal, ExactSum, ZERO } from '../numeric/decimal.js';
import type { SpecialTag } from '../model/response.js';
import type { Fill } from './execution.js';

/**
 * Sums over the settled deals that the summary needs besides their PnL (model 5): the fees,
 * and the sides of the slippage loss and of the trading volume (see {@link Deal.settle}). Each
 * is exact, rounded once when read (docs/model.md (j)): a deal settling adds without a rounding.
 */
export class DealTotals {
  readonly networkFee = new ExactSum();
  readonly botFee = new ExactSum();
  readonly soldUsd = new ExactSum();
  readonly boughtAtReference = new ExactSum();
  readonly soldAtReference = new ExactSum();

  /** Adds what a deal added when it settled ({@link Deal.settledTotals}); `sign` -1 takes it away. */
  addSettled(parts: readonly Decimal[], sign: 1 | -1 = 1): void {
    this.networkFee.add(parts[0]!, sign);
    this.botFee.add(parts[1]!, sign);
    this.soldUsd.add(parts[2]!, sign);
    this.boughtAtReference.add(parts[3]!, sign);
    this.soldAtReference.add(parts[4]!, sign);
  }

  /** Adds other totals, exactly. */
  addTotals(other: DealTotals): void {
    this.networkFee.addSum(other.networkFee);
    this.botFee.addSum(other.botFee);
    this.soldUsd.addSum(other.soldUsd);
    this.boughtAtReference.addSum(other.boughtAtReference);
    this.soldAtReference.addSum(other.soldAtReference);
  }
}

/** What a {@link Deal} is opened with. */
export interface DealSetup {
  /** Position in the response's `deals`: deals are numbered in the order they open. */
  readonly index: number;
  readonly tokenId: number;
  /**
   * The token's address as the swap that opened the deal spells it (on `eth` a tape may spell
   * one token in several cases; docs/model.md §14 (b)).
   */
  readonly tokenAddress: string;
  /** The leader whose buy opens the deal. */
  readonly leader: number;
  /** Time of the opening buy. */
  readonly time: number;
  /** `bot_fee_percent / 100`, or null when bot fees are not included. */
  readonly botFeeRate: Decimal | null;
  /**
   * True when the deal's own fee, slippage and sold-quantity sums are wanted (the response's
   * deals); a summary needs only the totals, so they are left at zero.
   */
  readonly detailed: boolean;
  /** Where each sell puts its parts by lot, when they are wanted (the `leaders` report). */
  readonly sellParts?: SellParts | null;
  /** The position in event order of the swap whose copy opens the deal (-1: not known). */
  readonly openEvent?: number;
  /** True to keep what the deal adds to the totals when it settles ({@link Deal.settledTotals}). */
  readonly keepsTotals?: boolean;
}

/**
 * The parts of the last sell by lot, in lot order: of each, the leader whose lot it is taken from,
 * its tokens and its cost basis. One buffer serves every deal of a replay: a sell fills it and the
 * replay reads it before the next trade, so a sell allocates nothing and a deal keeps nothing.
 */
export class SellParts {
  /** The parts of the last sell are the first `length` entries. */
  length = 0;
  readonly leaders: number[] = [];
  readonly quantities: Decimal[] = [];
  readonly bases: Decimal[] = [];

  /** Empties the buffer for the next sell. */
  clear(): void {
    this.length = 0;
  }

  /** Adds the part `quantity` taken from `leader`'s lot, with its cost basis. */
  add(leader: number, quantity: Decimal, basis: Decimal): void {
    const k = this.length++;
    this.leaders[k] = leader;
    this.quantities[k] = quantity;
    this.bases[k] = basis;
  }
}

/**
 * The follower's position in one token (model section 3): one lot per leader, each with its
 * cost, and the deal's accounting. At most one deal per token is open. What the response prints
 * of its trades is kept by the `TradeLog`, what the chart keeps of its valuations by the
 * `UnrealizedBook`.
 *
 * A trade adds to a few running sums; the results of model section 4 follow from them once, when
 * the deal is settled (equal forms of the model's sums over trades, see docs/model.md §14 (j)):
 * - `pnl_realized = sold_usd − sold_cost − Σ network fees − usd_bot_fee`, where `sold_cost` sums
 *   the sells' cost bases (`cost_L × x / lot_L` over the lots each sells from, model 1.2);
 * - `usd_bot_fee = rate × (bought_usd + sold_usd)`, the rate on every trade's `usd_amount`;
 * - `usd_slippage_loss = (bought_usd − Σ buys quantity × p) + (Σ sells V − sold_usd)`.
 * `usd_invested = Σ cost_L` is kept after every trade; `usd_buy_price_avg = usd_invested / qty`
 * is made when an exit rule or a printed trade needs it, and kept until a trade moves it.
 */
export class Deal {
  /** Position in the response's `deals`, the token, and its spelling (see {@link DealSetup}). */
  readonly index: number;
  readonly tokenId: number;
  readonly tokenAddress: string;
  /** The lot and its cost of the leader whose buy opened the deal, and those of the others, if any. */
  private readonly firstLeader: number;
  private firstLot: Decimal = ZERO;
  private firstCost: Decimal = ZERO;
  private otherLeaders: number[] | null = null;
  private otherLots: Decimal[] | null = null;
  private otherCosts: Decimal[] | null = null;
  qty: Decimal = ZERO;
  /** `usd_invested = Σ cost_L`: the cost of what is held, fees excluded (model 3). */
  invested: Decimal = ZERO;
  boughtUsd: Decimal = ZERO;
  /** Tokens bought (kept when the deal is `detailed`: its closed position is printed). */
  boughtQty: Decimal = ZERO;
  buys = 0;
  /** `pnl_realized`, made when the deal is settled: closed, or open at the window's end. */
  pnlRealized: Decimal = ZERO;
  // The deal's own sums, made when it is settled if it is `detailed`.
  networkFee: Decimal = ZERO;
  botFee: Decimal = ZERO;
  slippageLoss: Decimal = ZERO;
  /** Tokens sold (kept when the deal is `detailed`). */
  soldQty: Decimal = ZERO;
  // Running sums until the deal is settled: over the sells their `usd_amount` and their cost
  // basis; what the trades were worth at their reference price `p` (`Σ quantity × p` of the
  // buys, `Σ V` of the sells).
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
  open = true;
  specialTag: SpecialTag = null;
  openTime: number;
  lastOperationTime: number;
  /** Time of the closing trade, when closed. */
  closeTime = -1;
  /** `usd_buy_price_avg` as last made; null once a trade has moved it. */
  private avg: Decimal | null = null;
  /**
   * `usd_invested` and `qty` before the trade that emptied the deal: its `usd_buy_price_avg`
   * stays the one they give (model 3).
   */
  private investedBeforeEmpty: Decimal = ZERO;
  private qtyBeforeEmpty: Decimal = ZERO;
  private readonly botFeeRate: Decimal | null;
  private readonly detailed: boolean;
  /** See {@link DealSetup.openEvent}. */
  readonly openEvent: number;
  private readonly keepsTotals: boolean;
  /**
   * What the deal added to the totals when it settled, in the order of {@link DealTotals}'s
   * members (`networkFee`, `botFee`, `soldUsd`, `boughtAtReference`, `soldAtReference`); null
   * unless set up to keep them. A sweep adds them to the totals of runs sliced by token.
   */
  settledTotals: readonly Decimal[] | null = null;
  /** Where a sell puts its parts by lot; null when they are not wanted. */
  private readonly sellParts: SellParts | null;

  constructor({
    index,
    tokenId,
    tokenAddress,
    leader,
    time,
    botFeeRate,
    detailed,
    sellParts = null,
    openEvent = -1,
    keepsTotals = false,
  }: DealSetup) {
    this.sellParts = sellParts;
    this.openEvent = openEvent;
    this.keepsTotals = keepsTotals;
    this.index = index;
    this.tokenId = tokenId;
    this.tokenAddress = tokenAddress;
    this.firstLeader = leader;
    this.openTime = time;
    this.lastOperationTime = time;
    this.botFeeRate = botFeeRate;
    this.detailed = detailed;
  }

  /** `usd_buy_price_avg = usd_invested / qty`; an empty deal keeps the one it had before its last trade. */
  get buyPriceAvg(): Decimal {
    return (this.avg ??= this.qty.isZero()
      ? this.investedBeforeEmpty.div(this.qtyBeforeEmpty)
      : this.invested.div(this.qty));
  }

  /**
   * `usd_buy_price_avg` if an exit rule or a valuation has made it since the last trade moved
   * it, else null: a trade record then prints it from {@link avgNumerator} and {@link avgDenominator}.
   */
  get buyPriceAvgIfMade(): Decimal | null {
    return this.avg;
  }

  /** The numerator and denominator of `usd_buy_price_avg` (see {@link buyPriceAvg}). */
  get avgNumerator(): Decimal {
    return this.qty.isZero() ? this.investedBeforeEmpty : this.invested;
  }

  get avgDenominator(): Decimal {
    return this.qty.isZero() ? this.qtyBeforeEmpty : this.qty;
  }

  /**
   * Settles the deal's books once it has closed, or at the window's end: makes `pnl_realized`
   * (and, if `detailed`, the deal's fee and slippage sums), adds the deal's sums to `totals` and lets go of the
   * running sums. A closed deal also lets go of its lots: it waits for the response with a
   * handful of numbers, so a long run holds little per closed deal and leaves little for the
   * garbage collector to copy.
   */
  settle(totals: DealTotals): void {
    const networkFee = this.networkFeesPaid();
    const botFee = this.botFeeRate === null ? ZERO : this.boughtUsd.plus(this.soldUsd).times(this.botFeeRate);
    this.pnlRealized = this.soldUsd.minus(this.soldCost).minus(networkFee).minus(botFee);
    totals.networkFee.add(networkFee);
    totals.botFee.add(botFee);
    totals.soldUsd.add(this.soldUsd);
    totals.boughtAtReference.add(this.boughtAtReference);
    totals.soldAtReference.add(this.soldAtReference);
    if (this.keepsTotals) {
      this.settledTotals = [networkFee, botFee, this.soldUsd, this.boughtAtReference, this.soldAtReference];
    }
    if (this.detailed) {
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
    }
  }

  /** Tokens held in the lot of leader `leader` (0 when it has none). */
  lot(leader: number): Decimal {
    if (leader === this.firstLeader) return this.firstLot;
    const slot = this.otherLeaders === null ? -1 : this.otherLeaders.indexOf(leader);
    return slot < 0 ? ZERO : this.otherLots![slot]!;
  }

  /** The cost of the lot of leader `leader` (0 when it has none). */
  lotCost(leader: number): Decimal {
    if (leader === this.firstLeader) return this.firstCost;
    const slot = this.otherLeaders === null ? -1 : this.otherLeaders.indexOf(leader);
    return slot < 0 ? ZERO : this.otherCosts![slot]!;
  }

  /** The leaders with a lot, in the order the deal first copied each (the first one first). */
  lotLeaders(): readonly number[] {
    return this.otherLeaders === null ? [this.firstLeader] : [this.firstLeader, ...this.otherLeaders];
  }

  /** Records a buy copied from leader `leader`: its tokens and its `usd_amount` join that leader's lot. */
  addBuy(leader: number, time: number, fill: Fill, networkFee: Decimal): void {
    if (leader === this.firstLeader) {
      this.firstLot = this.firstLot.plus(fill.quantity);
      this.firstCost = this.firstCost.plus(fill.usdAmount);
    } else {
      const leaders = (this.otherLeaders ??= []);
      const lots = (this.otherLots ??= []);
      const costs = (this.otherCosts ??= []);
      const slot = leaders.indexOf(leader);
      if (slot < 0) {
        leaders.push(leader);
        lots.push(fill.quantity);
        costs.push(fill.usdAmount);
      } else {
        lots[slot] = lots[slot]!.plus(fill.quantity);
        costs[slot] = costs[slot]!.plus(fill.usdAmount);
      }
    }
    this.sumLots();
    this.boughtUsd = this.boughtUsd.plus(fill.usdAmount);
    if (this.detailed) this.boughtQty = this.boughtQty.plus(fill.quantity);
    this.boughtAtReference = this.boughtAtReference.plus(fill.atReference);
    this.buys++;
    this.record(time, networkFee);
  }

  /**
   * Records a sell of `fill.quantity` tokens out of leader `leader`'s lot, the share `fraction` of
   * it (null: the whole lot), and gives its cost basis `cost_L × x / lot_L`: with `x = f × lot_L`
   * that is `f × cost_L`, one product instead of a product and a division (equal but for the
   * 40th digit); the whole cost when the lot empties.
   */
  addLotSell(leader: number, fraction: Decimal | null, time: number, fill: Fill, networkFee: Decimal): Decimal {
    const x = fill.quantity;
    const whole = fraction === null;
    let basis: Decimal;
    if (leader === this.firstLeader) {
      basis = whole ? this.firstCost : this.firstCost.times(fraction);
      this.firstLot = whole ? ZERO : this.firstLot.minus(x);
      this.firstCost = whole ? ZERO : this.firstCost.minus(basis);
    } else {
      const slot = this.otherLeaders!.indexOf(leader);
      const lots = this.otherLots!;
      const costs = this.otherCosts!;
      basis = whole ? costs[slot]! : costs[slot]!.times(fraction);
      lots[slot] = whole ? ZERO : lots[slot]!.minus(x);
      costs[slot] = whole ? ZERO : costs[slot]!.minus(basis);
    }
    const parts = this.sellParts;
    if (parts !== null) {
      parts.clear();
      parts.add(leader, x, basis);
    }
    this.beforeChange();
    this.sumLots();
    return this.bookSell(time, fill, networkFee, basis);
  }

  /** Records a sell of the whole position (close_all, time-fixes, whole exits): every lot empties; gives its basis. */
  addWholeSell(time: number, fill: Fill, networkFee: Decimal): Decimal {
    const basis = this.invested;
    const parts = this.sellParts;
    if (parts !== null) {
      parts.clear();
      parts.add(this.firstLeader, this.firstLot, this.firstCost);
      const leaders = this.otherLeaders;
      if (leaders !== null) {
        for (let k = 0; k < leaders.length; k++) parts.add(leaders[k]!, this.otherLots![k]!, this.otherCosts![k]!);
      }
    }
    this.beforeChange();
    this.emptyLots();
    return this.bookSell(time, fill, networkFee, basis);
  }

  /**
   * The tokens a sell of the share `share` (0 < share < 1) of the position takes: `share × lot`
   * of every lot, added in the order the deal first copied each leader (strategy extensions 5).
   */
  shareOfLots(share: Decimal): Decimal {
    let sum = this.firstLot.times(share);
    if (this.otherLots !== null) for (const lot of this.otherLots) sum = sum.plus(lot.times(share));
    return sum;
  }

  /**
   * Records a sell of the share `share` (0 < share < 1) of every lot, whose quantity is
   * {@link shareOfLots}: each lot gives `x = share × lot` and the basis `cost × x / lot`. Gives
   * the sell's basis, the sum over the lots.
   */
  addShareSell(share: Decimal, time: number, fill: Fill, networkFee: Decimal): Decimal {
    const parts = this.sellParts;
    parts?.clear();
    let basis = ZERO;
    if (!this.firstLot.isZero()) {
      const sold = this.firstLot.times(share);
      basis = this.firstCost.times(sold).div(this.firstLot);
      this.firstLot = this.firstLot.minus(sold);
      this.firstCost = this.firstCost.minus(basis);
      parts?.add(this.firstLeader, sold, basis);
    }
    const lots = this.otherLots;
    const costs = this.otherCosts;
    if (lots !== null && costs !== null) {
      for (let k = 0; k < lots.length; k++) {
        const lot = lots[k]!;
        if (lot.isZero()) continue;
        const x = lot.times(share);
        const part = costs[k]!.times(x).div(lot);
        lots[k] = lot.minus(x);
        costs[k] = costs[k]!.minus(part);
        basis = basis.plus(part);
        parts?.add(this.otherLeaders![k]!, x, part);
      }
    }
    this.beforeChange();
    this.sumLots();
    return this.bookSell(time, fill, networkFee, basis);
  }

  /** Marks the deal closed by its last trade. */
  close(tag: SpecialTag): void {
    this.open = false;
    this.specialTag = tag;
    this.closeTime = this.lastOperationTime;
  }

  /** A sell's sums, once its tokens and basis have left the lots; gives its basis. */
  private bookSell(time: number, fill: Fill, networkFee: Decimal, basis: Decimal): Decimal {
    this.soldUsd = this.soldUsd.plus(fill.usdAmount);
    this.soldCost = this.soldCost.plus(basis);
    this.soldAtReference = this.soldAtReference.plus(fill.atReference);
    if (this.detailed) this.soldQty = this.soldQty.plus(fill.quantity);
    this.record(time, networkFee);
    return basis;
  }

  /**
   * Remembers the position a sell starts from, for the average of a deal it empties, which only
   * the closing trade's record prints (an empty deal closes at once): a deal that is not
   * `detailed` keeps no value for it, so the values it replaces die young.
   */
  private beforeChange(): void {
    if (!this.detailed) return;
    this.investedBeforeEmpty = this.invested;
    this.qtyBeforeEmpty = this.qty;
  }

  /** Every lot and its cost, and so `qty` and `usd_invested`, to zero. */
  private emptyLots(): void {
    this.firstLot = ZERO;
    this.firstCost = ZERO;
    this.otherLeaders = null;
    this.otherLots = null;
    this.otherCosts = null;
    this.qty = ZERO;
    this.invested = ZERO;
    this.avg = null;
  }

  /**
   * `qty` and `usd_invested` as the sums of the lots and of their costs, added in the order the
   * deal first copied each leader (docs/model.md §14 (g)); 0 exactly when every lot is.
   */
  private sumLots(): void {
    let qty = this.firstLot;
    let invested = this.firstCost;
    const lots = this.otherLots;
    const costs = this.otherCosts;
    if (lots !== null && costs !== null) {
      for (let k = 0; k < lots.length; k++) {
        qty = qty.plus(lots[k]!);
        invested = invested.plus(costs[k]!);
      }
    }
    this.qty = qty;
    this.invested = qty.isZero() ? ZERO : invested;
    this.avg = null;
  }

  /** The network fees of the trades so far. */
  private networkFeesPaid(): Decimal {
    if (this.feeCount === 0) return this.feesBefore;
    return this.feesBefore.plus(this.feeCount === 1 ? this.feeUnit : this.feeUnit.times(this.feeCount));
  }

  /** Counts a trade at `time` and its network fee. */
  private record(time: number, networkFee: Decimal): void {
    if (networkFee !== this.feeUnit) {
      this.feesBefore = this.networkFeesPaid();
      this.feeUnit = networkFee;
      this.feeCount = 0;
    }
    this.feeCount++;
    this.lastOperationTime = time;
    this.tradeCount++;
  }
}
