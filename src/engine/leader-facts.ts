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
 * Leader facts of an indexed tape, kept with the tape ({@link TapeMemo}) once computed: a sweep
 * or a server running many requests over one tape does the decimal work of a leader's holdings,
 * sell fractions and USD amounts once, not once per request. The values are the very ones a
 * {@link StreamLeaderFacts} computes; only the swaps' order of arrival (event order) matters.
 */
export class IndexedLeaderFacts implements LeaderFacts {
  private readonly memo: TapeMemo;
  private readonly previousOfPair: Int32Array;

  constructor(private readonly tape: IndexedTape) {
    this.memo = tapeMemo(tape);
    this.previousOfPair = this.memo.previousSwapOfPair();
  }

  holdingsBefore(_swap: Swap, i: number): Decimal {
    const known = this.memo.holdingsBefore;
    let held = known[i];
    if (held === undefined) {
      // The pair's previous swap came earlier in event order, and a replay asks for the
      // holdings before every swap of its leaders, so those before that swap are known.
      const previous = this.previousOfPair[i]!;
      held = previous < 0 ? ZERO : holdingsAfter(known[previous]!, this.tape.swaps[previous]!);
      known[i] = held;
    }
    return held;
  }

  sellFraction(swap: Swap, i: number, held: Decimal): Decimal | null {
    const known = this.memo.sellFraction;
    let fraction = known[i];
    if (fraction === undefined) known[i] = fraction = sellFraction(swap, held);
    return fraction;
  }

  usdAmount(swap: Swap, i: number): Decimal {
    const known = this.memo.usdAmount;
    return known[i] ?? (known[i] = usdAmountOf(swap));
  }
}
