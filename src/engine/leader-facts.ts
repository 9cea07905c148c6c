import { Decimal, ZERO } from '../numeric/decimal.js';
import type { Swap } from '../model/tape.js';
import type { IndexedTape } from './tape-index.js';
import { usdAmountOf } from './known-prices.js';
import { tapeMemo, type TapeMemo } from './tape-memo.js';

/**
 * What the replay needs to know about a leader's swap that depends on the tape alone, not on
 * the request: the leader's holdings of the token just before it (model section 2), the part of
 * a lot a sell takes (3.2), and the swap's USD amount (3.1).
 */
export interface LeaderFacts {
  /**
   * Holdings of the swap's wallet in its token just before the swap, for swaps given in event
   * order; `i` is the swap's index in an indexed tape, `tokenId` and `leader` name the pair.
   */
  holdingsBefore(swap: Swap, i: number, tokenId: number, leader: number): Decimal;
  /** For a sell with holdings `held` before it: `q / h`, or null when it sells everything (`q ≥ h × (1 − 10⁻⁶)`). */
  sellFraction(swap: Swap, i: number, held: Decimal): Decimal | null;
  /** The swap's `usd_amount`, or `quantity × usd_price` when it has none. */
  usdAmount(swap: Swap, i: number): Decimal;
}

/** Holdings after a swap, from the holdings before it (model section 2: sells floor at 0). */
function holdingsAfter(held: Decimal, swap: Swap): Decimal {
  const quantity = new Decimal(swap.quantity);
  if (swap.type === 'buy') return held.isZero() ? quantity : held.plus(quantity);
  return held.isZero() || held.lte(quantity) ? ZERO : held.minus(quantity);
}

/** `1 − 10⁻⁶`: a leader selling all but at most a millionth of its holdings sells all (model 1.2, 3.2). */
const ALL_BUT_DUST = new Decimal('0.999999');

function sellFraction(swap: Swap, held: Decimal): Decimal | null {
  const quantity = new Decimal(swap.quantity);
  return held.times(ALL_BUT_DUST).lte(quantity) ? null : quantity.div(held);
}

/** Leader facts computed as the swaps stream by, holding only the current holdings. */
export class StreamLeaderFacts implements LeaderFacts {
  /** Holdings by (token, leader) pair, `tokenId × leaderCount + leader`. */
  private readonly holdings = new Map<number, Decimal>();

  constructor(private readonly leaderCount: number) {}

  holdingsBefore(swap: Swap, _i: number, tokenId: number, leader: number): Decimal {
    const key = tokenId * this.leaderCount + leader;
    const held = this.holdings.get(key) ?? ZERO;
    this.holdings.set(key, holdingsAfter(held, swap));
    return held;
  }

  sellFraction(swap: Swap, _i: number, held: Decimal): Decimal | null {
    return sellFraction(swap, held);
  }

  usdAmount(swap: Swap): Decimal {
    return usdAmountOf(swap);
  }
}

/**
 * Leader facts of an indexed tape. A tape replayed again (a sweep's walks after the first, a
 * server's requests) keeps them with the tape ({@link TapeMemo}) once computed: it does the
 * decimal work of a leader's holdings, sell fractions and USD amounts once, not once per
 * request. A tape's first facts keep none: a tape replayed once (`simulate`, `rank`) would hold a
 * decimal or two per swap to the end for nothing, each copied by the young generation's
 * collections on its way to the old one. They keep only the holdings before each pair's latest
 * swap, from which those before its next one follow. The values are the very ones a
 * {@link StreamLeaderFacts} computes; only the swaps' order of arrival (event order) matters.
 */
export class IndexedLeaderFacts implements LeaderFacts {
  private readonly memo: TapeMemo;
  private readonly previousOfPair: Int32Array;
  /** True when the facts are kept with the tape; false for its first facts. */
  private readonly kept: boolean;
  /** The holdings before each swap: the memo's, or with {@link kept} false only each pair's latest. */
  private readonly holdings: (Decimal | undefined)[];

  constructor(private readonly tape: IndexedTape) {
    this.memo = tapeMemo(tape);
    this.previousOfPair = this.memo.previousSwapOfPair();
    this.kept = this.memo.countLeaderFacts() > 0;
    this.holdings = this.kept ? this.memo.holdingsBefore : new Array<Decimal | undefined>(tape.swaps.length);
  }

  holdingsBefore(_swap: Swap, i: number): Decimal {
    const known = this.holdings;
    let held = known[i];
    if (held === undefined) {
      // The pair's previous swap came earlier in event order, and a replay asks for the
      // holdings before every swap of its leaders, so those before that swap are known. Every
      // follower of the pair asks at this same step of the walk, so without a memo the previous
      // swap's holdings are no longer needed.
      const previous = this.previousOfPair[i]!;
      held = previous < 0 ? ZERO : holdingsAfter(known[previous]!, this.tape.swaps[previous]!);
      known[i] = held;
      if (!this.kept && previous >= 0) known[previous] = undefined;
    }
    return held;
  }

  sellFraction(swap: Swap, i: number, held: Decimal): Decimal | null {
    if (!this.kept) return sellFraction(swap, held);
    const known = this.memo.sellFraction;
    let fraction = known[i];
    if (fraction === undefined) known[i] = fraction = sellFraction(swap, held);
    return fraction;
  }

  usdAmount(swap: Swap, i: number): Decimal {
    // A price book under `min_price_swap_usd` may have made it already.
    const known = this.memo.usdAmount;
    const amount = known[i];
    if (amount !== undefined) return amount;
    return this.kept ? (known[i] = usdAmountOf(swap)) : usdAmountOf(swap);
  }
}
