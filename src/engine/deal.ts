import { Decimal, ZERO } from '../model/decimal.js';
import type { SpecialTag, TradeType } from '../model/response.js';
import type { Fees, Fill } from './execution.js';
import type { TradeLog } from './trade-log.js';

/**
 * The follower's position in one token (model section 3): one lot per leader, deal accounting
 * and its trades. At most one deal per token is open at a time.
 */
export class Deal {
  /** Leaders with a lot, and their lots: a deal copies a handful of leaders at most. */
  private readonly lotLeaders: number[] = [];
  private readonly lots: Decimal[] = [];
  qty: Decimal = ZERO;
  boughtUsd: Decimal = ZERO;
  boughtQty: Decimal = ZERO;
  /** Tokens sold (printed only: kept when the deal records its trades). */
  soldQty: Decimal = ZERO;
  buyPriceAvg: Decimal = ZERO;
  /** `qty × usd_buy_price_avg`: cost of what is held, fees excluded. */
  invested: Decimal = ZERO;
  buys = 0;
  realized: Decimal = ZERO;
  // Printed-only sums, kept when the deal records its trades (the summary takes its fee and
  // slippage totals, and the trading volume, from the replay, trade by trade).
  slippageLoss: Decimal = ZERO;
  networkFee: Decimal = ZERO;
  botFee: Decimal = ZERO;
  tradeCount = 0;
  /** The deal's rows in the trade log, when the replay keeps one. */
  readonly tradeRows: number[] = [];
  /** What the last trade added: realized PnL (sell gain less fees) and its fees. */
  lastRealized: Decimal = ZERO;
  lastFee: Decimal = ZERO;
  open = true;
  specialTag: SpecialTag = null;
  openTime: number;
  lastOperationTime: number;
  /** Time of the closing trade, when closed. */
  closeTime = -1;
  /** `qty × known price` at the last valuation, and `invested` as last booked (see `UnrealizedBook`). */
  marketValue: Decimal = ZERO;
  bookedInvested: Decimal = ZERO;
  /** True when the price or the position moved since the last valuation. */
  dirty = false;

  constructor(
    /** Position in the response's `deals`: deals are numbered in the order they open. */
    readonly index: number,
    readonly tokenId: number,
    time: number,
    /** Where the trades are recorded; null when only the deal's sums are wanted (a summary). */
    private readonly log: TradeLog | null,
  ) {
    this.openTime = time;
    this.lastOperationTime = time;
  }

  /** Tokens held in the lot of leader `leader` (0 when it has none). */
  lot(leader: number): Decimal {
    const slot = this.lotLeaders.indexOf(leader);
    return slot < 0 ? ZERO : this.lots[slot]!;
  }

  /** Records a buy copied from leader `leader`. */
  addBuy(leader: number, time: number, fill: Fill, liquidity: Decimal | null, fees: Fees): void {
    this.changeLot(leader, fill.quantity);
    this.boughtUsd = this.boughtUsd.plus(fill.usdAmount);
    this.boughtQty = this.boughtQty.plus(fill.quantity);
    this.buyPriceAvg = this.boughtUsd.div(this.boughtQty);
    this.buys++;
    this.record('buy', time, fill, liquidity, fees, ZERO);
  }

  /**
   * Records a sell of `fill.quantity` tokens. With `leader` set, they come out of that leader's
   * lot; with null, the whole position is sold (close_all and time-fix) and every lot empties.
   */
  addSell(type: TradeType, leader: number | null, time: number, fill: Fill, liquidity: Decimal | null, fees: Fees): void {
    if (leader === null) {
      this.lotLeaders.length = 0;
      this.lots.length = 0;
      this.qty = ZERO;
    } else {
      this.changeLot(leader, fill.quantity.neg());
    }
    if (this.log !== null) this.soldQty = this.soldQty.plus(fill.quantity);
    const gain = fill.usdAmount.minus(fill.quantity.times(this.buyPriceAvg));
    this.record(type, time, fill, liquidity, fees, gain);
  }

  /** Marks the deal closed by its last trade. */
  close(tag: SpecialTag): void {
    this.open = false;
    this.specialTag = tag;
    this.closeTime = this.lastOperationTime;
  }

  /**
   * Lets go of what only an open deal needs, once the books have taken its closing trade: a
   * closed deal waits for the response with only its sums (a long stream closes many deals).
   */
  releaseOpenState(): void {
    this.lotLeaders.length = 0;
    this.lots.length = 0;
    this.buyPriceAvg = ZERO;
    this.invested = ZERO;
    this.marketValue = ZERO;
    this.bookedInvested = ZERO;
    this.lastRealized = ZERO;
    this.lastFee = ZERO;
  }

  /** Adds `change` to a leader's lot; `qty` stays the sum of the lots (0 exactly when all are). */
  private changeLot(leader: number, change: Decimal): void {
    const slot = this.lotLeaders.indexOf(leader);
    if (slot < 0) {
      this.lotLeaders.push(leader);
      this.lots.push(change);
    } else {
      this.lots[slot] = this.lots[slot]!.plus(change);
    }
    if (this.lots.length === 1) {
      this.qty = this.lots[0]!;
      return;
    }
    let sum = ZERO;
    for (const lot of this.lots) sum = sum.plus(lot);
    this.qty = sum;
  }

  private record(type: TradeType, time: number, fill: Fill, liquidity: Decimal | null, fees: Fees, gain: Decimal): void {
    const fee = fees.bot.isZero() ? fees.network : fees.network.plus(fees.bot);
    const realized = gain.minus(fee);
    this.realized = this.realized.plus(realized);
    this.invested = this.qty.times(this.buyPriceAvg);
    this.lastOperationTime = time;
    this.lastRealized = realized;
    this.lastFee = fee;
    this.tradeCount++;
    if (this.log !== null) {
      this.slippageLoss = this.slippageLoss.plus(fill.slippageLoss);
      this.networkFee = this.networkFee.plus(fees.network);
      if (!fees.bot.isZero()) this.botFee = this.botFee.plus(fees.bot);
      this.tradeRows.push(
        this.log.add({
          type,
          time,
          usdAmount: fill.usdAmount,
          quantity: fill.quantity,
          price: fill.price,
          liquidity,
          buyPriceAvg: this.buyPriceAvg,
          invested: this.invested,
          slippage: fill.slippage,
          networkFee: fees.network,
          botFee: fees.bot,
        }),
      );
    }
  }
}
