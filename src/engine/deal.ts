import { Decimal, ZERO } from '../model/decimal.js';
import type { SpecialTag, TradeType } from '../model/response.js';
import type { Fees, Fill } from './execution.js';

/** A follower trade as the engine records it (exact decimals; JSON numbers only at the edge). */
export interface TradeRecord {
  readonly type: TradeType;
  readonly time: number;
  readonly usdAmount: Decimal;
  readonly quantity: Decimal;
  readonly price: Decimal;
  readonly liquidity: Decimal | null;
  readonly buyPriceAvg: Decimal;
  readonly invested: Decimal;
  readonly slippage: Decimal;
  readonly slippageLoss: Decimal;
  readonly networkFee: Decimal;
  readonly botFee: Decimal;
  /** Realized PnL this trade added to its deal: sell gain less its fees. */
  readonly realized: Decimal;
}

/**
 * The follower's position in one token (model section 3): one lot per leader, deal accounting
 * and its trades. At most one deal per token is open at a time.
 */
export class Deal {
  /** Tokens held per leader (by leader index); the deal's `qty` is their sum. */
  private readonly lots = new Map<number, Decimal>();
  qty: Decimal = ZERO;
  boughtUsd: Decimal = ZERO;
  boughtQty: Decimal = ZERO;
  soldQty: Decimal = ZERO;
  buyPriceAvg: Decimal = ZERO;
  buys = 0;
  realized: Decimal = ZERO;
  slippageLoss: Decimal = ZERO;
  networkFee: Decimal = ZERO;
  botFee: Decimal = ZERO;
  readonly trades: TradeRecord[] = [];
  open = true;
  specialTag: SpecialTag = null;
  openTime: number;
  lastOperationTime: number;
  /** Time of the closing trade, when closed. */
  closeTime = -1;

  constructor(
    /** Position in the response's `deals`: deals are numbered in the order they open. */
    readonly index: number,
    readonly tokenId: number,
    time: number,
  ) {
    this.openTime = time;
    this.lastOperationTime = time;
  }

  /** `qty × usd_buy_price_avg`: cost of what is held, fees excluded. */
  get invested(): Decimal {
    return this.qty.times(this.buyPriceAvg);
  }

  /** Tokens held in the lot of leader `leader` (0 when it has none). */
  lot(leader: number): Decimal {
    return this.lots.get(leader) ?? ZERO;
  }

  /** Records a buy copied from leader `leader`. */
  addBuy(leader: number, time: number, fill: Fill, liquidity: Decimal | null, fees: Fees): TradeRecord {
    this.lots.set(leader, this.lot(leader).plus(fill.quantity));
    this.qty = this.sumLots();
    this.boughtUsd = this.boughtUsd.plus(fill.usdAmount);
    this.boughtQty = this.boughtQty.plus(fill.quantity);
    this.buyPriceAvg = this.boughtUsd.div(this.boughtQty);
    this.buys++;
    return this.record('buy', time, fill, liquidity, fees, ZERO);
  }

  /**
   * Records a sell of `fill.quantity` tokens. With `leader` set, they come out of that leader's
   * lot; with null, the whole position is sold (close_all and time-fix) and every lot empties.
   */
  addSell(type: TradeType, leader: number | null, time: number, fill: Fill, liquidity: Decimal | null, fees: Fees): TradeRecord {
    if (leader === null) {
      this.lots.clear();
      this.qty = ZERO;
    } else {
      this.lots.set(leader, this.lot(leader).minus(fill.quantity));
      this.qty = this.sumLots();
    }
    this.soldQty = this.soldQty.plus(fill.quantity);
    const gain = fill.usdAmount.minus(fill.quantity.times(this.buyPriceAvg));
    return this.record(type, time, fill, liquidity, fees, gain);
  }

  /** Marks the deal closed by its last trade. */
  close(tag: SpecialTag): void {
    this.open = false;
    this.specialTag = tag;
    this.closeTime = this.lastOperationTime;
  }

  private sumLots(): Decimal {
    let sum = ZERO;
    for (const lot of this.lots.values()) sum = sum.plus(lot);
    return sum;
  }

  private record(type: TradeType, time: number, fill: Fill, liquidity: Decimal | null, fees: Fees, gain: Decimal): TradeRecord {
    const realized = gain.minus(fees.network).minus(fees.bot);
    this.realized = this.realized.plus(realized);
    this.slippageLoss = this.slippageLoss.plus(fill.slippageLoss);
    this.networkFee = this.networkFee.plus(fees.network);
    this.botFee = this.botFee.plus(fees.bot);
    this.lastOperationTime = time;
    const trade: TradeRecord = {
      type,
      time,
      usdAmount: fill.usdAmount,
      quantity: fill.quantity,
      price: fill.price,
      liquidity,
      buyPriceAvg: this.buyPriceAvg,
      invested: this.invested,
      slippage: fill.slippage,
      slippageLoss: fill.slippageLoss,
      networkFee: fees.network,
      botFee: fees.bot,
      realized,
    };
    this.trades.push(trade);
    return trade;
  }
}
