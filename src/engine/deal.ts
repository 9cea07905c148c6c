import { Decimal, ZERO } from '../numeric/decimal.js';
import type { SpecialTag } from '../model/response.js';
import type { Fill } from './execution.js';

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
}

/**
 * The follower's position in one token (model section 3): one lot per leader and the deal's
 * accounting. At most one deal per token is open. What the response prints of its trades is
 * kept by the `TradeLog`, what the chart keeps of its valuations by the `UnrealizedBook`.
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
  /** Position in the response's `deals`, the token, and its spelling (see {@link DealSetup}). */
  readonly index: number;
  readonly tokenId: number;
  readonly tokenAddress: string;
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
  // The deal's own sums, made when it is settled if it is `detailed`.
  networkFee: Decimal = ZERO;
  botFee: Decimal = ZERO;
  slippageLoss: Decimal = ZERO;
  /** Tokens sold (kept when the deal is `detailed`). */
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
  open = true;
  specialTag: SpecialTag = null;
  openTime: number;
  lastOperationTime: number;
  /** Time of the closing trade, when closed. */
  closeTime = -1;
  /** `usd_buy_price_avg` and `usd_invested` as last made; null once a trade has moved them. */
  private avg: Decimal | null = null;
  private investedNow: Decimal | null = null;
  private readonly botFeeRate: Decimal | null;
  private readonly detailed: boolean;

  constructor({ index, tokenId, tokenAddress, leader, time, botFeeRate, detailed }: DealSetup) {
    this.index = index;
    this.tokenId = tokenId;
    this.tokenAddress = tokenAddress;
    this.firstLeader = leader;
    this.openTime = time;
    this.lastOperationTime = time;
    this.botFeeRate = botFeeRate;
    this.detailed = detailed;
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
   * `usd_buy_price_avg` if a sell, a dupe buy's cap or a valuation has made it since the last
   * trade moved it, else null: a trade record then prints it from the running sums instead.
   */
  get buyPriceAvgIfMade(): Decimal | null {
    return this.avg;
  }

  /** `usd_invested` if made since the last trade moved it, else null (see {@link buyPriceAvgIfMade}). */
  get investedIfMade(): Decimal | null {
    return this.investedNow;
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
    totals.networkFee = totals.networkFee.plus(networkFee);
    if (!botFee.isZero()) totals.botFee = totals.botFee.plus(botFee);
    totals.soldUsd = totals.soldUsd.plus(this.soldUsd);
    totals.boughtAtReference = totals.boughtAtReference.plus(this.boughtAtReference);
    totals.soldAtReference = totals.soldAtReference.plus(this.soldAtReference);
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
      this.investedNow = ZERO;
    }
  }

  /** Tokens held in the lot of leader `leader` (0 when it has none). */
  lot(leader: number): Decimal {
    if (leader === this.firstLeader) return this.firstLot;
    const slot = this.otherLeaders === null ? -1 : this.otherLeaders.indexOf(leader);
    return slot < 0 ? ZERO : this.otherLots![slot]!;
  }

  /** Records a buy copied from leader `leader`. */
  addBuy(leader: number, time: number, fill: Fill, networkFee: Decimal): void {
    this.changeLot(leader, fill.quantity);
    this.boughtUsd = this.boughtUsd.plus(fill.usdAmount);
    this.boughtQty = this.boughtQty.plus(fill.quantity);
    this.boughtAtReference = this.boughtAtReference.plus(fill.atReference);
    this.avg = null;
    this.buys++;
    this.record(time, networkFee);
  }

  /**
   * Records a sell of `fill.quantity` tokens and gives its cost, `quantity × usd_buy_price_avg`.
   * With `leader` set, they come out of that leader's lot; with null, the whole position is sold
   * (close_all and time-fix) and every lot empties.
   */
  addSell(leader: number | null, time: number, fill: Fill, networkFee: Decimal): Decimal {
    if (leader === null) {
      this.emptyLots();
      this.investedNow = null;
    } else {
      this.changeLot(leader, fill.quantity.neg());
    }
    return this.bookSell(time, fill, networkFee);
  }

  /** A sell's sums, once its tokens have left the lots; gives its cost. */
  private bookSell(time: number, fill: Fill, networkFee: Decimal): Decimal {
    const cost = fill.quantity.times(this.buyPriceAvg);
    this.soldUsd = this.soldUsd.plus(fill.usdAmount);
    this.soldCost = this.soldCost.plus(cost);
    this.soldAtReference = this.soldAtReference.plus(fill.atReference);
    if (this.detailed) this.soldQty = this.soldQty.plus(fill.quantity);
    this.record(time, networkFee);
    return cost;
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
   * {@link shareOfLots}, and gives its cost as {@link addSell} does.
   */
  addShareSell(share: Decimal, time: number, fill: Fill, networkFee: Decimal): Decimal {
    this.investedNow = null;
    this.firstLot = this.firstLot.minus(this.firstLot.times(share));
    if (this.otherLots !== null) this.otherLots = this.otherLots.map((lot) => lot.minus(lot.times(share)));
    this.sumLots();
    return this.bookSell(time, fill, networkFee);
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
    this.sumLots();
  }

  /** `qty` as the sum of the lots, in the order the deal first copied each leader. */
  private sumLots(): void {
    let sum = this.firstLot;
    if (this.otherLots !== null) for (const lot of this.otherLots) sum = sum.plus(lot);
    this.qty = sum;
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
