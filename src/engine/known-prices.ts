import { Decimal, type DecimalInput } from '../model/decimal.js';

/**
 * Each token's known price and known liquidity (model 1.1). A swap only stores a reference to
 * its raw `usd_price` (and `usd_liquidity` when not null): no decimal work and no allocation
 * for the market swaps that make up most of a tape. The decimal is made when a follower trade
 * or a valuation asks for it, and kept until the token's price moves again.
 */
export class KnownPrices {
  private readonly price: (DecimalInput | undefined)[];
  private readonly liquidity: (DecimalInput | undefined)[];
  private readonly priceDecimal: (Decimal | undefined)[];
  private readonly priceSource: (DecimalInput | undefined)[];
  private readonly liquidityDecimal: (Decimal | undefined)[];
  private readonly liquiditySource: (DecimalInput | undefined)[];

  /** `tokenCount`: the tokens known in advance (more may come, as in a streamed tape). */
  constructor(tokenCount = 0) {
    const empty = (): undefined[] => new Array<undefined>(tokenCount).fill(undefined);
    this.price = empty();
    this.liquidity = empty();
    this.priceDecimal = empty();
    this.priceSource = empty();
    this.liquidityDecimal = empty();
    this.liquiditySource = empty();
  }

  /** Records a swap of token `tokenId` as its latest price (and liquidity, when it has one). */
  observe(tokenId: number, price: DecimalInput, liquidity: DecimalInput | null | undefined): void {
    this.price[tokenId] = price;
    if (liquidity != null) this.liquidity[tokenId] = liquidity;
  }

  /** The known price of a token that has been observed. */
  priceOf(tokenId: number): Decimal {
    const raw = this.price[tokenId]!;
    if (this.priceSource[tokenId] === raw) return this.priceDecimal[tokenId]!;
    const value = new Decimal(raw);
    this.priceSource[tokenId] = raw;
    this.priceDecimal[tokenId] = value;
    return value;
  }

  /** The known liquidity of a token, or null when none of its swaps carried one. */
  liquidityOf(tokenId: number): Decimal | null {
    const raw = this.liquidity[tokenId];
    if (raw === undefined) return null;
    if (this.liquiditySource[tokenId] === raw) return this.liquidityDecimal[tokenId]!;
    const value = new Decimal(raw);
    this.liquiditySource[tokenId] = raw;
    this.liquidityDecimal[tokenId] = value;
    return value;
  }
}
