import { Decimal, ZERO } from '../numeric/decimal.js';
import type { Swap } from '../model/tape.js';
import type { IndexedTape } from './tape-index.js';
import { ExactHoldings, holdingsAfter } from './holdings.js';
import { usdAmountOf } from './known-prices.js';
import { tapeMemo, type SwapPairs, type TapeMemo } from './tape-memo.js';

/**
 * What the replay needs to know about a leader's swap that depends on the tape alone, not on
 * the request: the leader's holdings of the token just before it (model section 2), the part of
 * a lot a sell takes (3.2), and the swap's USD amount (3.1).
 */
export interface LeaderFacts {
  /**
   * Moves the holdings of the swap's wallet in its token by the swap, for swaps given in event
   * order; `i` is the swap's index in an indexed tape, `tokenId` and `leader` name the pair.
   * {@link heldBefore} then gives the holdings just before it.
   */
  moveHoldings(swap: Swap, i: number, tokenId: number, leader: number): void;
  /** The holdings of the pair of the swap last given to {@link moveHoldings}, just before that swap. */
  heldBefore(): Decimal;
  /** For a sell with holdings `held` before it: `q / h`, or null when it sells everything (`q ≥ h × (1 − 10⁻⁶)`). */
  sellFraction(swap: Swap, i: number, held: Decimal): Decimal | null;
  /** The swap's `usd_amount`, or `quantity × usd_price` when it has none. */
  usdAmount(swap: Swap, i: number): Decimal;
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
 * Leader facts computed as the swaps stream by, holding only the current holdings: a slot by
 * token and leader ({@link ExactHoldings}), a token's slots made when a leader first trades it
 * (a live feed sees many tokens no leader trades).
 */
export class StreamLeaderFacts implements LeaderFacts {
  private readonly holdings = new ExactHoldings();
  /** Each token's first slot; -1 while no leader has traded it. */
  private readonly firstSlotOf: number[] = [];

  constructor(private readonly leaderCount: number) {}

  moveHoldings(swap: Swap, _i: number, tokenId: number, leader: number): void {
    const firstSlotOf = this.firstSlotOf;
    while (firstSlotOf.length <= tokenId) firstSlotOf.push(-1);
    let first = firstSlotOf[tokenId]!;
    if (first < 0) firstSlotOf[tokenId] = first = this.holdings.addSlots(this.leaderCount);
    this.holdings.move(first + leader, swap.quantity, swap.type === 'buy');
  }

  heldBefore(): Decimal {
    return this.holdings.before();
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
  /** When not kept: each wallet's first slot in {@link holdings} (-1: none yet), made when its first swap is asked. */
  private readonly firstSlotOf: Int32Array;
  /** When not kept: each pair's holdings after its latest swap asked, and before it. */
  private readonly holdings = new ExactHoldings();
  /** When not kept: the latest swap asked of each slot's pair (-1: none). */
  private readonly askedAt: number[] = [];
  /** When kept: the swap last asked, whose holdings before it the memo holds. */
  private lastAsked = -1;

  constructor(
    private readonly tape: IndexedTape,
    keep = true,
  ) {
    this.memo = tapeMemo(tape);
    this.pairs = this.memo.swapPairs();
    this.kept = this.memo.countLeaderFacts() > 0 && keep;
    this.firstSlotOf = new Int32Array(this.kept ? 0 : tape.walletIds.size).fill(-1);
  }

  moveHoldings(swap: Swap, i: number): void {
    if (this.kept) {
      // Made now: the pair's next swap is made from it.
      this.keptHoldingsBefore(i);
      this.lastAsked = i;
      return;
    }
    this.moveSlot(swap, i);
  }

  heldBefore(): Decimal {
    return this.kept ? this.memo.holdingsBefore[this.lastAsked]! : this.holdings.before();
  }

  /** {@link moveHoldings} when not kept. */
  private moveSlot(swap: Swap, i: number): void {
    // A replay asks for the holdings before every swap of its leaders, in event order, so the
    // pair's slot holds its previous swap, or this one when another follower of the pair asked
    // first at this step of the walk.
    const slot = this.slotOf(i);
    if (this.askedAt[slot] === i) {
      this.holdings.select(slot);
      return;
    }
    this.askedAt[slot] = i;
    this.holdings.move(slot, swap.quantity, swap.type === 'buy');
  }

  /** The slot of swap `i`'s pair, its wallet's slots made when first asked. */
  private slotOf(i: number): number {
    const wallet = this.tape.walletOf[i]!;
    let first = this.firstSlotOf[wallet]!;
    if (first < 0) {
      const pairs = this.pairs.pairsOfWallet[wallet]!;
      this.firstSlotOf[wallet] = first = this.holdings.addSlots(pairs);
      for (let k = 0; k < pairs; k++) this.askedAt.push(-1);
    }
    return first + this.pairs.pairOf[i]!;
  }

  /** From the memo; the pair's previous swap, asked before, is there. */
  private keptHoldingsBefore(i: number): Decimal {
    const known = this.memo.holdingsBefore;
    let held = known[i];
    if (held === undefined) {
      const previous = this.pairs.previous[i]!;
      if (previous < 0) held = ZERO;
      else {
        const swap = this.tape.swaps[previous]!;
        held = holdingsAfter(known[previous]!, new Decimal(swap.quantity), swap.type === 'buy');
      }
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
