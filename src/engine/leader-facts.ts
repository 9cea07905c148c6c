import { Decimal, ZERO } from '../model/decimal.js';
import type { Swap } from '../model/tape.js';
import type { IndexedTape } from './tape-index.js';

/**
 * What the replay needs to know about a leader's swap that depends on the tape alone, not on
 * the request: the leader's holdings of the token just before it (model section 2), the part of
 * a lot a sell takes (3.2), and the swap's USD amount (3.1).
 */
export interface LeaderFacts {
  /**
   * Holdings of the swap's wallet in its token just before the swap, for swaps given in event
   * order; `key` names the (leader, token) pair, `i` is the swap's index in an indexed tape.
   */
  holdingsBefore(swap: Swap, i: number, key: number): Decimal;
  /** For a sell with holdings `held` before it: `q / h`, or null when it sells everything (`h ≤ q`). */
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

function sellFraction(swap: Swap, held: Decimal): Decimal | null {
  const quantity = new Decimal(swap.quantity);
  return held.lte(quantity) ? null : quantity.div(held);
}

function usdAmount(swap: Swap): Decimal {
  return swap.usd_amount !== undefined ? new Decimal(swap.usd_amount) : new Decimal(swap.quantity).times(swap.usd_price);
}

/** Leader facts computed as the swaps stream by, holding only the current holdings. */
export class StreamLeaderFacts implements LeaderFacts {
  private readonly holdings = new Map<number, Decimal>();

  holdingsBefore(swap: Swap, _i: number, key: number): Decimal {
    const held = this.holdings.get(key) ?? ZERO;
    this.holdings.set(key, holdingsAfter(held, swap));
    return held;
  }

  sellFraction(swap: Swap, _i: number, held: Decimal): Decimal | null {
    return sellFraction(swap, held);
  }

  usdAmount(swap: Swap): Decimal {
    return usdAmount(swap);
  }
}

/** Per indexed tape: its leader facts by swap index, filled as simulations ask for them. */
class TapeFacts {
  readonly holdingsBefore: (Decimal | undefined)[];
  /** `null`: the sell takes the whole lot; `undefined`: not computed yet. */
  readonly sellFraction: (Decimal | null | undefined)[];
  readonly usdAmount: (Decimal | undefined)[];

  constructor(swapCount: number) {
    this.holdingsBefore = new Array<Decimal | undefined>(swapCount);
    this.sellFraction = new Array<Decimal | null | undefined>(swapCount);
    this.usdAmount = new Array<Decimal | undefined>(swapCount);
  }
}

const factsOfTape = new WeakMap<IndexedTape, TapeFacts>();

/**
 * Leader facts of an indexed tape, kept with the tape (in a WeakMap) once computed: a sweep or
 * a server running many requests over one tape does the decimal work of a leader's holdings,
 * sell fractions and USD amounts once, not once per request. The values are the very ones a
 * {@link StreamLeaderFacts} computes; only the swaps' order of arrival (event order) matters.
 */
export class IndexedLeaderFacts implements LeaderFacts {
  private readonly facts: TapeFacts;
  /** Index of the last swap seen of each (leader, token) pair in this run. */
  private readonly lastSwap = new Map<number, number>();

  constructor(private readonly tape: IndexedTape) {
    let facts = factsOfTape.get(tape);
    if (facts === undefined) factsOfTape.set(tape, (facts = new TapeFacts(tape.swaps.length)));
    this.facts = facts;
  }

  holdingsBefore(_swap: Swap, i: number, key: number): Decimal {
    const known = this.facts.holdingsBefore;
    let held = known[i];
    if (held === undefined) {
      // The pair's previous swap came earlier in this same run, so its holdings are known.
      const previous = this.lastSwap.get(key);
      held = previous === undefined ? ZERO : holdingsAfter(known[previous]!, this.tape.swaps[previous]!);
      known[i] = held;
    }
    this.lastSwap.set(key, i);
    return held;
  }

  sellFraction(swap: Swap, i: number, held: Decimal): Decimal | null {
    const known = this.facts.sellFraction;
    let fraction = known[i];
    if (fraction === undefined) known[i] = fraction = sellFraction(swap, held);
    return fraction;
  }

  usdAmount(swap: Swap, i: number): Decimal {
    const known = this.facts.usdAmount;
    return known[i] ?? (known[i] = usdAmount(swap));
  }
}
