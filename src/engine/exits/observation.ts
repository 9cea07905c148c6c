import { type Decimal, HUNDRED } from '../../numeric/decimal.js';
import type { PriceBook } from '../known-prices.js';

/**
 * How far a comparison made in doubles may be from the exact one. The doubles of a price, an
 * average or a peak are within 2⁻⁴⁹ of the decimals (`Decimal40.toApproxNumber`); a ROI made from
 * them is within about 10⁻¹² percent of the exact one, far inside this margin. Only an
 * observation inside the margin of a threshold is decided in exact decimals.
 */
export const MARGIN = 1e-9;

/** What the exit rules read of a deal when a price is observed. */
export interface ExitDeal {
  readonly index: number;
  readonly open: boolean;
  readonly tokenId: number;
  /** `usd_buy_price_avg` (an exit sell takes the same share of every lot and its cost: it does not move it). */
  readonly buyPriceAvg: Decimal;
}

/**
 * One price observation of a token whose deal is open (strategy extensions 5): the price `P`,
 * the deal's average and `ROI(P) = 100 × (P − avg) / avg`, each as a double at once and as an
 * exact decimal when a rule near its threshold asks for it. Shared by the rules checked at it.
 */
export class PriceObservation {
  deal: ExitDeal | null = null;
  /** `P` and the ROI as doubles. */
  priceNumber = 0;
  roiNumber = 0;
  private prices: PriceBook | null = null;
  private price: Decimal | null = null;
  private roi: Decimal | null = null;

  /** Starts an observation of `deal` at its token's known price, with the average's double `avgNumber`. */
  start(deal: ExitDeal, prices: PriceBook, avgNumber: number): void {
    const p = prices.priceNumber(deal.tokenId);
    this.deal = deal;
    this.prices = prices;
    this.price = null;
    this.roi = null;
    this.priceNumber = p;
    this.roiNumber = (100 * (p - avgNumber)) / avgNumber;
  }

  /** `P`, exact. */
  exactPrice(): Decimal {
    return (this.price ??= this.prices!.priceOf(this.deal!.tokenId));
  }

  /** `ROI(P) = 100 × (P − avg) / avg`, exact, in the text's order; made once an observation. */
  exactRoi(): Decimal {
    if (this.roi === null) {
      const avg = this.deal!.buyPriceAvg;
      this.roi = HUNDRED.times(this.exactPrice().minus(avg)).div(avg);
    }
    return this.roi;
  }

  /** False only when the ROI is surely below `roi`. */
  mayReach(roi: number): boolean {
    return this.roiNumber >= roi - MARGIN * (1 + Math.abs(roi));
  }

  /** False only when the ROI is surely above `roi`. */
  mayFallTo(roi: number): boolean {
    return this.roiNumber <= roi + MARGIN * (1 + Math.abs(roi));
  }
}
