import { ZERO, type Decimal } from '../numeric/decimal.js';
import {
  accumulate,
  accumulateKept,
  ADDITION_ERROR,
  addWords,
  CONVERSION_ERROR,
  doubleWord,
  multiplyWords,
  restartAt,
  ROUNDING_40_ERROR,
  toWord,
} from '../numeric/double-word.js';
import type { Deal } from './deal.js';
import type { PriceBook, PriceKey } from './known-prices.js';
import { grown } from '../typed-arrays.js';

/**
 * `Σ over open deals of qty × known price − usd_invested` (the chart's unrealized PnL) or, without
 * `usd_invested`, `Σ qty × known price` (the copier's held value), kept in double-word arithmetic
 * (about 106 bits, pairs of doubles) with a rigorous bound on its distance to the exact sum. Its
 * readers decide from it the doubles the response prints, or whether a comparison can go either
 * way, and compute exactly only when it can ({@link UnrealizedBook}, {@link HeldValue}).
 *
 * Each open deal holds a slot with its booked term as a double word, the error bound of that
 * term, and the double words of the `qty` and `usd_invested` it was made from (see {@link SLOT}),
 * and a {@link BookedDeal} with the decimals they were made from. A price move only flags the
 * token, in arrays indexed by token (no work per market swap, and the deal is not touched); a
 * {@link revalue} re-books the flagged tokens' deals whose price, position or `usd_invested`
 * changed.
 */
export class DealTerms {
  /**
   * The tokens flagged since the last revaluation (a stack of token ids), and each token's flag.
   * The stack and {@link slotToken} are plain arrays of small integers: a rank makes ten thousand
   * followers' terms, and a typed array of their length would be a buffer outside V8's heap, slow
   * to allocate.
   */
  private readonly flagged: number[] = [];
  private flaggedCount = 0;
  private flag = new Uint8Array(64);
  /** The deal in the sum of each token, by token id. */
  private readonly bookedOfToken: (BookedDeal | undefined)[] = [];
  /** The deals in the sum, by slot. */
  readonly open: BookedDeal[] = [];
  /** Per slot, {@link SLOT} doubles. */
  private slots = new Float64Array(64 * SLOT);
  /**
   * Per slot, the deal's token and the key of the price its term was made at: side by side in
   * arrays, so that {@link revalueAll}'s comparison of every open deal reads memory in a row.
   */
  private readonly slotToken: number[] = [];
  private readonly slotKey: PriceKey[] = [];
  /**
   * The sum as a double word and a bound on its distance to the exact sum of the open deals'
   * terms ({@link SUM_HIGH}, {@link SUM_LOW}, {@link SUM_BOUND}), and what {@link literalGap}
   * needs of the last restart ({@link LITERAL_BASE}): in a typed array, as double fields of an
   * object may be kept as boxed numbers, one allocation a store.
   */
  readonly state = new Float64Array(4);
  /** Where a price word is read and the double-word operations leave their results. */
  private readonly word = doubleWord();
  /**
   * With `usd_invested` in the terms, `Σ usd_invested` beside them when kept (high, low, bound):
   * with the terms it gives `Σ qty × price` ({@link readProducts}), for a copier's equity that
   * shares the chart's valuations; else null. It moves only when a position does, not at every
   * price move.
   */
  private readonly invested: Float64Array | null;

  /**
   * `withInvested`: the terms take away each deal's `usd_invested` (the unrealized PnL);
   * `keepsProducts`: such terms also give `Σ qty × price`, keeping `Σ usd_invested` beside them ({@link readProducts}).
   */
  constructor(
    private readonly prices: PriceBook,
    private readonly withInvested: boolean,
    keepsProducts = false,
  ) {
    this.invested = withInvested && keepsProducts ? new Float64Array(3) : null;
  }

  /**
   * `Σ qty × price` at the last revaluation as a double word and a bound on its distance to the
   * model's sum (each product and addition rounded to 40 digits): `out[0] + out[1]` within
   * `out[2]`. The terms themselves without `usd_invested`, else the terms plus `Σ usd_invested`;
   * the products weigh no more than the terms, so the terms' {@link literalGap} covers them.
   */
  readProducts(out: Float64Array): void {
    const state = this.state;
    const invested = this.invested;
    if (invested === null) {
      out[0] = state[SUM_HIGH]!;
      out[1] = state[SUM_LOW]!;
      out[2] = state[SUM_BOUND]! + this.literalGap();
      return;
    }
    addWords(out, state[SUM_HIGH]!, state[SUM_LOW]!, invested[SUM_HIGH]!, invested[SUM_LOW]!);
    const bound = state[SUM_BOUND]! + invested[SUM_BOUND]! + Math.abs(out[0]!) * ADDITION_ERROR;
    out[2] = bound + this.literalGap();
  }

  /** The token has a new price: re-value its deal, if any, at the next revaluation. */
  priceMoved(tokenId: number): void {
    if (tokenId >= this.flag.length) this.flag = grown(this.flag, tokenId);
    if (this.flag[tokenId] === 1) return;
    this.flag[tokenId] = 1;
    this.flagged[this.flaggedCount++] = tokenId;
  }

  /** The deal traded and stays open: its position and `usd_invested` moved. */
  traded(deal: Deal): void {
    if (this.bookedOfToken[deal.tokenId] === undefined) this.enter(deal);
    this.priceMoved(deal.tokenId);
  }

  /** The deal closed: its term leaves the sum. */
  close(deal: Deal): void {
    const booked = this.bookedOfToken[deal.tokenId];
    if (booked === undefined) return;
    const at = booked.slot;
    const base = at * SLOT;
    const f = this.slots;
    accumulateKept(this.state, f, base + TERM_HIGH, -1);
    const invested = this.invested;
    if (invested !== null) {
      const high = f[base + INVESTED_HIGH]!;
      accumulate(invested, -high, -f[base + INVESTED_LOW]!, Math.abs(high) * CONVERSION_ERROR);
    }
    const last = this.open.length - 1;
    const moved = this.open[last]!;
    if (moved !== booked) {
      // A loop, not copyWithin: eight doubles cost less than the builtin's call into the runtime.
      for (let k = 0, from = last * SLOT; k < SLOT; k++) f[base + k] = f[from + k]!;
      this.open[at] = moved;
      moved.slot = at;
      this.slotToken[at] = this.slotToken[last]!;
      this.slotKey[at] = this.slotKey[last]!;
    }
    this.open.pop(); // the last deal, moved into the freed slot if it was not this one
    this.bookedOfToken[deal.tokenId] = undefined;
    if (last === 0) {
      // Nothing open: the sums are exactly zero.
      this.state.fill(0);
      this.invested?.fill(0);
    }
  }

  /**
   * A bound on the distance between the exact sum of the open deals' terms and the model's
   * (each product, difference and addition rounded to 40 digits): at most
   * `ROUNDING_40_ERROR × (n + 2) × M` for `n` open deals and `M = Σ (|qty × price| +
   * |usd_invested|)` over them. The bound finds `M` without a loop: every term booked since the
   * last restart added at least `TERM_ERROR × (|qty × price| + |usd_invested|)` to the sum's
   * bound, and the restart kept `M` of the terms it found ({@link LITERAL_BASE}).
   */
  literalGap(): number {
    const state = this.state;
    const magnitude = state[LITERAL_BASE]! + state[SUM_BOUND]! * PER_TERM_ERROR;
    return (this.open.length + 2) * magnitude * ROUNDING_40_ERROR * LITERAL_SAFETY;
  }

  /**
   * The double-word sum starts again from `exact`, the sum computed exactly, whose terms had
   * the magnitude `magnitude` (`Σ |qty × price| + |usd_invested|`), which {@link literalGap}
   * keeps within reach of the model's.
   */
  restart(exact: Decimal, magnitude: number): void {
    const state = this.state;
    // The exact sum rounded to 40 digits differs from it by < 2^-128 of it: within the conversion's bound.
    restartAt(state, exact);
    state[LITERAL_BASE] = magnitude * LITERAL_SAFETY - state[SUM_BOUND]! * PER_TERM_ERROR;
  }

  /** Gives a deal that starts trading a slot, with nothing booked. */
  private enter(deal: Deal): void {
    const at = this.open.length;
    if ((at + 1) * SLOT > this.slots.length) {
      const grown = new Float64Array(this.slots.length * 2);
      grown.set(this.slots);
      this.slots = grown;
    }
    this.slots.fill(0, at * SLOT, at * SLOT + SLOT);
    this.slotToken[at] = deal.tokenId;
    this.slotKey[at] = NO_KEY;
    const booked = new BookedDeal(deal, at);
    this.open.push(booked);
    this.bookedOfToken[deal.tokenId] = booked;
  }

  /** Re-books the term of every flagged token's deal whose price, position or `usd_invested` changed. */
  revalue(): void {
    const flagged = this.flagged;
    for (let k = 0; k < this.flaggedCount; k++) {
      const tokenId = flagged[k]!;
      this.flag[tokenId] = 0;
      const booked = this.bookedOfToken[tokenId];
      if (booked === undefined) continue; // no deal, or closed since
      const priceKey = this.prices.priceKey(tokenId);
      const qty = booked.deal.qty;
      const invested = this.withInvested ? booked.deal.invested : ZERO;
      const positionMoved = qty !== booked.qty || invested !== booked.invested;
      if (positionMoved) this.convertPosition(booked, qty, invested);
      else if (priceKey === this.slotKey[booked.slot]) continue;
      this.slotKey[booked.slot] = priceKey;
      this.prices.priceWord(tokenId, this.word);
      rebook(this.state, this.slots, booked.slot * SLOT, this.word);
    }
    this.flaggedCount = 0;
  }

  /**
   * {@link revalue} for a reader told of its trades but not of price moves: the flagged deals,
   * then every open deal's price key compared with the one its term was made at.
   */
  revalueAll(): void {
    this.revalue();
    const count = this.open.length;
    const tokens = this.slotToken;
    const keys = this.slotKey;
    const prices = this.prices;
    for (let at = 0; at < count; at++) {
      const tokenId = tokens[at]!;
      const priceKey = prices.priceKey(tokenId);
      if (priceKey === keys[at]) continue;
      keys[at] = priceKey;
      prices.priceWord(tokenId, this.word);
      rebook(this.state, this.slots, at * SLOT, this.word);
    }
  }

  /** Keeps the double words of a deal's new `qty` and `usd_invested` in its slot. */
  private convertPosition(booked: BookedDeal, qty: Decimal, invested: Decimal): void {
    const f = this.slots;
    const base = booked.slot * SLOT;
    const word = this.word;
    if (qty !== booked.qty) {
      toWord(word, qty);
      f[base + QTY_HIGH] = word[0]!;
      f[base + QTY_LOW] = word[1]!;
      booked.qty = qty;
    }
    if (invested !== booked.invested) {
      toWord(word, invested);
      if (this.invested !== null) moveInvested(this.invested, f, base, word);
      f[base + INVESTED_HIGH] = word[0]!;
      f[base + INVESTED_LOW] = word[1]!;
      booked.invested = invested;
    }
  }
}

/** The key of a slot whose term no price has made yet (no price book gives it). */
const NO_KEY = -1;

/**
 * An open deal in a {@link DealTerms} sum: its slot, and the `qty` and `usd_invested` its booked
 * term was last made from (the price's key is the slot's, `DealTerms.slotKey`).
 */
export class BookedDeal {
  qty: Decimal = ZERO;
  invested: Decimal = ZERO;

  constructor(
    readonly deal: Deal,
    /** The deal's slot: where its doubles lie in `DealTerms.slots` ({@link SLOT} a slot). */
    public slot: number,
  ) {}
}

/**
 * Re-books the term of the slot at `base` at the price in `word`: `qty × price − usd_invested`
 * from the slot's double words; the sum takes the difference between the new term and the old,
 * and `word` serves for the steps. Its arguments are arrays and a small integer: if the compiler
 * does not inline it (the replay's functions use up its inlining budget), no double is boxed to
 * call it.
 */
function rebook(sum: Float64Array, f: Float64Array, base: number, word: Float64Array): void {
  multiplyWords(word, f[base + QTY_HIGH]!, f[base + QTY_LOW]!, word[0]!, word[1]!);
  const productHigh = word[0]!;
  const productLow = word[1]!;
  const investedHigh = f[base + INVESTED_HIGH]!;
  addWords(word, productHigh, productLow, -investedHigh, -f[base + INVESTED_LOW]!);
  const termHigh = word[0]!;
  const termLow = word[1]!;
  const termBound = (Math.abs(productHigh) + Math.abs(investedHigh)) * TERM_ERROR;
  // One addition to the sum instead of two (the old term out, the new one in). The change's
  // bound counts the old and the new term's errors and the difference's own.
  addWords(word, termHigh, termLow, -f[base + TERM_HIGH]!, -f[base + TERM_LOW]!);
  const changeHigh = word[0]!;
  const changeLow = word[1]!;
  const changeBound = f[base + TERM_BOUND]! + termBound + Math.abs(changeHigh) * ADDITION_ERROR;
  f[base + TERM_HIGH] = termHigh;
  f[base + TERM_LOW] = termLow;
  f[base + TERM_BOUND] = termBound;
  accumulate(sum, changeHigh, changeLow, changeBound);
}

/**
 * Moves `Σ usd_invested` from the slot's old `usd_invested` (its double word at `base`) to the new
 * one in `word`; the change's bound counts both conversions and the difference.
 */
function moveInvested(invested: Float64Array, f: Float64Array, base: number, word: Float64Array): void {
  const oldHigh = f[base + INVESTED_HIGH]!;
  const newHigh = word[0]!;
  const change = INVESTED_CHANGE;
  addWords(change, newHigh, word[1]!, -oldHigh, -f[base + INVESTED_LOW]!);
  const conversions = (Math.abs(oldHigh) + Math.abs(newHigh)) * CONVERSION_ERROR;
  accumulate(invested, change[0]!, change[1]!, conversions + Math.abs(change[0]!) * ADDITION_ERROR);
}

/** Where {@link moveInvested} makes the change (the new value's word stays in the caller's). */
const INVESTED_CHANGE = doubleWord();

// The state: a bounded sum (`accumulate` in `double-word.ts`), and the magnitude of the terms at
// the last restart less what the bound held then (`literalGap`).
export const SUM_HIGH = 0;
export const SUM_LOW = 1;
export const SUM_BOUND = 2;
const LITERAL_BASE = 3;

// Per slot: the double words of qty and usd_invested as last converted, and the booked term
// `qty × price − usd_invested` with its error bound (in a row, as `accumulateKept` reads it).
const QTY_HIGH = 0;
const QTY_LOW = 1;
const INVESTED_HIGH = 2;
const INVESTED_LOW = 3;
const TERM_HIGH = 4;
const TERM_LOW = 5;
const TERM_BOUND = 6;
/** Doubles per slot. */
const SLOT = 7;

/**
 * A term `qty × price − usd_invested`: two conversions and a product (< 2^-102) and a difference
 * (< 2^-104 of the operands), counted as 4 × CONVERSION_ERROR of |product| + |invested|.
 */
const TERM_ERROR = 4 * CONVERSION_ERROR;
/** `1 / TERM_ERROR` (a power of two: exact). */
const PER_TERM_ERROR = 1 / TERM_ERROR;
/**
 * Covers what `literalGap`'s count leaves out: the magnitudes read from doubles (a few units of
 * 2^-53), the growth of partial sums by their roundings (`(1 + 2^-128)^n`), its own arithmetic.
 */
const LITERAL_SAFETY = 1 + 2 ** -20;
