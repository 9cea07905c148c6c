import { Decimal, ZERO } from '../numeric/decimal.js';
import type { Swap } from '../model/tape.js';
import type { IndexedTape } from './tape-index.js';
import { usdAmountOf } from './known-prices.js';
import { tapeMemo, type SwapPairs, type TapeMemo } from './tape-memo.js';

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

/** Whether a sell of `quantity` out of holdings `held` sells all of them (model 3.2). */
export function sellsAll(quantity: Decimal, held: Decimal): boolean {
  return held.times(ALL_BUT_DUST).lte(quantity);
}

function sellFraction(swap: Swap, held: Decimal): Decimal | null {
  const quantity = new Decimal(swap.quantity);
  return sellsAll(quantity, held) ? null : quantity.div(held);
}

/**
 * Leader facts computed as the swaps stream by, holding only the current holdings: by token, an
 * array of the leaders' holdings, made when a leader first trades the token (a map keyed by pair
 * cost a hash lookup and a cache miss or two a swap).
 */
export class StreamLeaderFacts implements LeaderFacts {
  private readonly byToken: (Decimal[] | undefined)[] = [];

  constructor(private readonly leaderCount: number) {}

  holdingsBefore(swap: Swap, _i: number, tokenId: number, leader: number): Decimal {
    const byToken = this.byToken;
    while (byToken.length <= tokenId) byToken.push(undefined);
    let holdings = byToken[tokenId];
    if (holdings === undefined) byToken[tokenId] = holdings = new Array<Decimal>(this.leaderCount).fill(ZERO);
    const held = holdings[leader]!;
    holdings[leader] = holdingsAfter(held, swap);
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
 * request. A tape's first facts keep none, nor do facts made with `keep` false (a rank's walks,
 * each copying other wallets): a tape replayed once would hold a decimal or two per swap to the
 * end for nothing, each copied by the young generation's collections on its way to the old one.
 * They keep each (wallet, token) pair's holdings before and after its latest swap, in slots by
 * wallet and pair, made for the wallets asked: the holdings after a swap are made when it is
 * asked, its object and quantity then in the cache, not when the pair's next swap is (one swap
 * of a pair lies far from the next). The values are the very ones a {@link StreamLeaderFacts}
 * computes; only the swaps' order of arrival (event order) matters.
 */
export class IndexedLeaderFacts implements LeaderFacts {
  private readonly memo: TapeMemo;
  /** True when the facts are kept with the tape. */
  private readonly kept: boolean;
  private readonly pairs: SwapPairs;
  /** When not kept: the slots of each wallet's pairs, made when its first swap is asked. */
  private readonly slotsOf: (PairSlots | undefined)[];

  constructor(
    private readonly tape: IndexedTape,
    keep = true,
  ) {
    this.memo = tapeMemo(tape);
    this.pairs = this.memo.swapPairs();
    this.kept = this.memo.countLeaderFacts() > 0 && keep;
    this.slotsOf = new Array<PairSlots | undefined>(this.kept ? 0 : tape.walletIds.size).fill(undefined);
  }

  holdingsBefore(swap: Swap, i: number): Decimal {
    if (this.kept) return this.keptHoldingsBefore(i);
    // A replay asks for the holdings before every swap of its leaders, in event order, so the
    // pair's slots hold its previous swap, or this one when another follower of the pair asked
    // first at this step of the walk.
    const wallet = this.tape.walletOf[i]!;
    const slots = (this.slotsOf[wallet] ??= new PairSlots(this.pairs.pairsOfWallet[wallet]!));
    const pair = this.pairs.pairOf[i]!;
    if (slots.askedAt[pair] === i) return slots.before[pair]!;
    const held = slots.after[pair]!;
    slots.askedAt[pair] = i;
    slots.before[pair] = held;
    slots.after[pair] = holdingsAfter(held, swap);
    return held;
  }

  /** From the memo; the pair's previous swap, asked before, is there. */
  private keptHoldingsBefore(i: number): Decimal {
    const known = this.memo.holdingsBefore;
    let held = known[i];
    if (held === undefined) {
      const previous = this.pairs.previous[i]!;
      held = previous < 0 ? ZERO : holdingsAfter(known[previous]!, this.tape.swaps[previous]!);
      known[i] = held;
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

/** A wallet's pairs: the latest swap asked of each (-1: none), the holdings before and after it. */
class PairSlots {
  readonly askedAt: Int32Array;
  readonly before: Decimal[];
  readonly after: Decimal[];

  constructor(pairs: number) {
    this.askedAt = new Int32Array(pairs).fill(-1);
    this.before = new Array<Decimal>(pairs).fill(ZERO);
    this.after = new Array<Decimal>(pairs).fill(ZERO);
  }
}
