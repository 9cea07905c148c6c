import { Decimal, ExactSum, toJsonNumber, type DecimalInput } from '../model/decimal.js';
import type { Deal } from './deal.js';
import type { PriceBook } from './known-prices.js';

/**
 * The chart's unrealized PnL after each trade, `Σ over open deals of qty × known price −
 * usd_invested` (model 6), as the JSON numbers the response prints: the nearest doubles of the
 * exact sum rounded to 40 digits, and of `pnl_total`, the realized PnL plus that.
 *
 * Re-valuing open deals is most of the chart's work (after each trade, every deal whose token
 * traded since), and the printed answer is a double. So the sum is kept in double-word
 * arithmetic (about 106 bits, pairs of doubles) with a rigorous bound on its error, and each
 * reading decides the printed double from it: when the interval `sum ± bound` lies inside one
 * double's rounding cell, every exact value in it, the 40-digit rounding included, prints as that
 * double. Only when the interval touches a cell's edge (a near tie, or a sum cancelled to almost
 * nothing) is the sum computed exactly, in an {@link ExactSum} over the open deals, and the
 * double-word sum restarted from it. A re-valuation thus costs a few dozen floating-point
 * operations instead of two exact products, and the printed numbers are the exact ones.
 *
 * Each open deal holds a slot with its booked term `qty × price − usd_invested` as a double word,
 * the error bound of that term, and the double words of the `qty` and `usd_invested` it was made
 * from (see {@link SLOT}). A price move only flags the deal (no work per market swap); a reading
 * re-values the flagged deals whose price, position or `usd_invested` changed.
 */
export class UnrealizedBook {
  private readonly dirty: Deal[] = [];
  /** The deals in the sum, by slot. */
  private readonly open: Deal[] = [];
  /** Per slot, {@link SLOT} doubles. */
  private slots = new Float64Array(64 * SLOT);
  /** The sum as a double word, and a bound on its distance to the exact sum of the open deals' terms. */
  private sumHigh = 0;
  private sumLow = 0;
  private bound = 0;
  private readonly exact = new ExactSum();
  /** The last reading: the printed `pnl_unrealized` and `pnl_total`. */
  unrealized = 0;
  total = 0;
  /** Readings that had to be computed exactly (for tests and diagnostics). */
  exactReadings = 0;

  constructor(private readonly prices: PriceBook) {}

  /** The deal's token has a new price: re-value it at the next reading. */
  markDirty(deal: Deal): void {
    if (!deal.dirty) {
      deal.dirty = true;
      this.dirty.push(deal);
    }
  }

  /** The deal traded and stays open: its position and `usd_invested` moved. */
  traded(deal: Deal): void {
    if (deal.slot < 0) this.enter(deal);
    this.markDirty(deal);
  }

  /** The deal closed: its term leaves the sum. */
  close(deal: Deal): void {
    const at = deal.slot;
    if (at < 0) return;
    const base = at * SLOT;
    const f = this.slots;
    this.addToSum(-f[base + TERM_HIGH]!, -f[base + TERM_LOW]!, f[base + TERM_BOUND]!);
    const last = this.open.length - 1;
    const moved = this.open[last]!;
    if (moved !== deal) {
      f.copyWithin(base, last * SLOT, last * SLOT + SLOT);
      this.open[at] = moved;
      moved.slot = at;
    }
    this.open.length = last;
    deal.slot = -1;
    if (last === 0) this.restart(0, 0, 0); // nothing open: the sum is exactly zero
  }

  /**
   * Re-values the deals that moved, then sets {@link unrealized} and {@link total} (`realized`
   * plus the sum, rounded to 40 digits) to the doubles the response prints.
   */
  read(realized: Decimal): void {
    this.revalue();
    if (this.open.length === 0) {
      this.unrealized = 0;
      this.total = toJsonNumber(realized);
      return;
    }
    const high = this.sumHigh;
    const low = this.sumLow;
    // The 40-digit rounding of the sum moves it by at most 5 × 10^-40 of itself (< 2^-128).
    const bound = this.bound * SAFETY + Math.abs(high) * TWO_M128;
    const unrealized = decide(high, low, bound);
    if (unrealized === unrealized) {
      // realized + sum, rounded to 40 digits: the conversion of `realized`, one more addition and
      // the rounding add their errors.
      toWord(realized);
      const rHigh = W[0]!;
      addWords(rHigh, W[1]!, high, low);
      const tHigh = W[0]!;
      const totalBound = bound + (Math.abs(rHigh) * TWO_M98 + Math.abs(tHigh) * TWO_M100 + Math.abs(tHigh) * TWO_M128) * SAFETY;
      const total = decide(tHigh, W[1]!, totalBound);
      if (total === total) {
        this.unrealized = unrealized;
        this.total = total;
        return;
      }
    }
    this.readExactly(realized);
  }

  /** The exact sum over the open deals, rounded to 40 digits; the double-word sum restarts from it. */
  private readExactly(realized: Decimal): void {
    this.exactReadings++;
    const sum = this.exact;
    sum.clear();
    for (const deal of this.open) {
      sum.addProduct(deal.valuedQty, new Decimal(deal.valuedPrice));
      sum.add(deal.bookedInvested, -1);
    }
    const value = sum.value();
    this.unrealized = toJsonNumber(value);
    this.total = toJsonNumber(realized.plus(value));
    toWord(value);
    // The 40-digit value differs from the exact sum by < 2^-128 of it, its double word by < 2^-100.
    this.restart(W[0]!, W[1]!, Math.abs(W[0]!) * TWO_M98);
  }

  private restart(high: number, low: number, bound: number): void {
    this.sumHigh = high;
    this.sumLow = low;
    this.bound = bound;
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
    this.open.push(deal);
    deal.slot = at;
  }

  /** Re-books the term of every flagged open deal whose price, position or `usd_invested` changed. */
  private revalue(): void {
    const f = this.slots;
    for (const deal of this.dirty) {
      deal.dirty = false;
      if (deal.slot < 0) continue; // closed since it was flagged
      const price = this.prices.valuationPrice(deal.tokenId);
      const qty = deal.qty;
      const invested = deal.invested;
      if (price === deal.valuedPrice && qty === deal.valuedQty && invested === deal.bookedInvested) continue;
      const base = deal.slot * SLOT;
      if (qty !== deal.valuedQty) {
        toWord(qty);
        f[base + QTY_HIGH] = W[0]!;
        f[base + QTY_LOW] = W[1]!;
        deal.valuedQty = qty;
      }
      if (invested !== deal.bookedInvested) {
        toWord(invested);
        f[base + INVESTED_HIGH] = W[0]!;
        f[base + INVESTED_LOW] = W[1]!;
        deal.bookedInvested = invested;
      }
      deal.valuedPrice = price;
      if (price instanceof Decimal) toWord(price);
      else rawToWord(price);
      multiplyWords(f[base + QTY_HIGH]!, f[base + QTY_LOW]!, W[0]!, W[1]!);
      const productHigh = W[0]!;
      const investedHigh = f[base + INVESTED_HIGH]!;
      addWords(productHigh, W[1]!, -investedHigh, -f[base + INVESTED_LOW]!);
      // Each factor's conversion errs by < 2^-100 of it, their product by < 2^-102 and the
      // difference by < 2^-104 of the operands: < 2^-98 of |product| + |invested| in all.
      const termBound = (Math.abs(productHigh) + Math.abs(investedHigh)) * TWO_M96;
      const termHigh = W[0]!;
      const termLow = W[1]!;
      this.addToSum(-f[base + TERM_HIGH]!, -f[base + TERM_LOW]!, f[base + TERM_BOUND]!);
      this.addToSum(termHigh, termLow, termBound);
      f[base + TERM_HIGH] = termHigh;
      f[base + TERM_LOW] = termLow;
      f[base + TERM_BOUND] = termBound;
    }
    this.dirty.length = 0;
  }

  /**
   * Adds a term (a double word within `termBound` of an exact term) to the sum; the bound grows
   * by the term's and by the addition's error (< 2^-104 of the result, counted as 2^-100).
   */
  private addToSum(high: number, low: number, termBound: number): void {
    addWords(this.sumHigh, this.sumLow, high, low);
    this.sumHigh = W[0]!;
    this.sumLow = W[1]!;
    this.bound += termBound + Math.abs(W[0]!) * TWO_M100;
  }
}

// Per slot: the double words of qty and usd_invested as last converted, and the booked term
// `qty × price − usd_invested` with its error bound.
const QTY_HIGH = 0;
const QTY_LOW = 1;
const INVESTED_HIGH = 2;
const INVESTED_LOW = 3;
const TERM_HIGH = 4;
const TERM_LOW = 5;
const TERM_BOUND = 6;
/** Doubles per slot (one spare, for alignment). */
const SLOT = 8;

const TWO_M96 = 2 ** -96;
const TWO_M98 = 2 ** -98;
const TWO_M100 = 2 ** -100;
const TWO_M128 = 2 ** -128;
/** Covers the rounding of the bound's own arithmetic (relative 2^-53 a step). */
const SAFETY = 1.001;

// ---- Double-word arithmetic -------------------------------------------------------------------
// A double word is an unevaluated sum `high + low` of two doubles with |low| ≤ half a unit in
// the last place of `high` (Dekker; Joldes, Muller and Popescu, "Tight and rigorous error bounds
// for basic building blocks of double-word arithmetic", 2017). Results go to the scratch `W`
// (high, low) so that nothing is allocated.

/** The result of the last double-word operation: `W[0] + W[1]`. */
export const W = new Float64Array(2);

/** 2^27 + 1: splits a double into two halves of 26 significant bits (Veltkamp). */
const SPLITTER = 134217729;

/** `W = x + y` for double words, relative error < 3 × 2^-106 (AccurateDWPlusDW). */
export function addWords(xHigh: number, xLow: number, yHigh: number, yLow: number): void {
  let s = xHigh + yHigh;
  let v = s - xHigh;
  const sLow = xHigh - (s - v) + (yHigh - v);
  const t = xLow + yLow;
  v = t - xLow;
  const tLow = xLow - (t - v) + (yLow - v);
  let c = sLow + t;
  let high = s + c;
  c = c - (high - s);
  s = high;
  c += tLow;
  high = s + c;
  W[0] = high;
  W[1] = c - (high - s);
}

/** `W = x × y` for double words, relative error < 2^-102 (Dekker's product, then the cross terms). */
export function multiplyWords(xHigh: number, xLow: number, yHigh: number, yLow: number): void {
  const p = xHigh * yHigh;
  let t = SPLITTER * xHigh;
  const xh = t - (t - xHigh);
  const xl = xHigh - xh;
  t = SPLITTER * yHigh;
  const yh = t - (t - yHigh);
  const yl = yHigh - yh;
  const error = xh * yh - p + xh * yl + xl * yh + xl * yl;
  const low = error + (xHigh * yLow + xLow * yHigh);
  const high = p + low;
  W[0] = high;
  W[1] = low - (high - p);
}

/**
 * `W` = the decimal as a double word, relative error < 2^-100; NaN in `W[0]` when its exponent
 * is outside the table (beyond about 10^±250, where no money amount of the engine lies).
 * The 40-digit coefficient is split into three integers exact in a double, `H` (12 digits),
 * `M` and `L` (14 each): `C = H × 10^28 + M × 10^14 + L`.
 */
export function toWord(d: Decimal): void {
  const e = d.e;
  const k = e + 28 - POW10_LOW_EXPONENT;
  if (k < 28 || k >= POW10_HIGH.length) {
    W[0] = d.c0 === 0 ? 0 : NaN;
    W[1] = 0;
    return;
  }
  const sign = d.s;
  const h = (d.c0 * 1e7 + d.c1) * sign;
  // h × 10^(e+28) exactly as a double plus its error, with the table's low part.
  const ph = POW10_HIGH[k]!;
  const p = h * ph;
  let t = SPLITTER * h;
  const hh = t - (t - h);
  const hl = h - hh;
  t = SPLITTER * ph;
  const qh = t - (t - ph);
  const ql = ph - qh;
  let low = hh * qh - p + hh * ql + hl * qh + hl * ql + h * POW10_LOW[k]!;
  if (d.c2 !== 0 || d.c3 !== 0 || d.c4 !== 0 || d.c5 !== 0) {
    // M × 10^(e+14) and L × 10^e are below 10^-12 and 10^-26 of the value: one product each,
    // with the table's low part for M, keeps them within 2^-106 of it.
    const m = (d.c2 * 1e7 + d.c3) * sign;
    const l = (d.c4 * 1e7 + d.c5) * sign;
    low += m * POW10_HIGH[k - 14]! + (m * POW10_LOW[k - 14]! + l * POW10_HIGH[k - 28]!);
  }
  const high = p + low;
  W[0] = high;
  W[1] = low - (high - p);
}

/**
 * `W` = a tape's raw decimal (a string or a number, as `Decimal` reads it) as a double word,
 * relative error < 2^-100, without making a decimal when it has at most 15 significant digits.
 */
export function rawToWord(raw: DecimalInput): void {
  if (!(typeof raw === 'string' ? shortTextToWord(raw) : numberToWord(raw))) toWord(new Decimal(raw));
}

/** `W` = a plain decimal string of at most 15 significant digits (`12.5`, `3e-7`); false for any other. */
function shortTextToWord(text: string): boolean {
  const length = text.length;
  let i = 0;
  let sign = 1;
  if (text.charCodeAt(0) === 45 /* - */) {
    sign = -1;
    i++;
  }
  let value = 0;
  let digits = 0;
  let significant = 0;
  let fractionDigits = 0;
  let point = false;
  let exponent = 0;
  for (; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      digits++;
      if (point) fractionDigits++;
      if (significant === 0 && c === 48) continue;
      if (++significant > 15) return false;
      value = value * 10 + (c - 48);
    } else if (c === 46 /* . */ && !point) {
      point = true;
    } else if ((c === 101 || c === 69) /* e E */ && digits > 0 && i + 1 < length) {
      let j = i + 1;
      const exponentSign = text.charCodeAt(j) === 45 ? -1 : 1;
      if (text.charCodeAt(j) === 45 || text.charCodeAt(j) === 43) j++;
      if (j === length || length - j > 4) return false;
      for (; j < length; j++) {
        const d = text.charCodeAt(j) - 48;
        if (d < 0 || d > 9) return false;
        exponent = exponent * 10 + d;
      }
      exponent *= exponentSign;
      break;
    } else {
      return false;
    }
  }
  if (digits === 0) return false;
  return scaledToWord(sign * value, exponent - fractionDigits);
}

/**
 * `W` = a number as `Decimal` reads it, its shortest decimal text. When `c × 10^-j` with
 * `c < 10^15` rounds to the number, it is that text's value (two decimals of at most 15
 * significant digits lie too far apart to round to the same double); false when none is found.
 */
function numberToWord(n: number): boolean {
  if (Number.isSafeInteger(n)) {
    W[0] = n;
    W[1] = 0;
    return true;
  }
  const magnitude = Math.abs(n);
  if (!(magnitude >= 1e-250 && magnitude <= 1e250)) return false;
  const j = 14 - Math.floor(Math.log10(magnitude));
  const at = j - POW10_LOW_EXPONENT;
  if (at < 0 || at >= POW10_HIGH.length) return false;
  const c = Math.round(magnitude * POW10_HIGH[at]!);
  if (c >= 1e15 || !scaledToWord(c, -j)) return false;
  // c × 10^-j is within 2^-104 of W: it rounds to W[0] when W[0] is the number and W[1] is
  // well inside half a unit in its last place (at least 2^-53 of it).
  if (W[0] !== magnitude || Math.abs(W[1]!) >= magnitude * 2 ** -55) return false;
  if (n < 0) {
    W[0] = -W[0]!;
    W[1] = -W[1]!;
  }
  return true;
}

/** `W` = `c × 10^k` for an integer `|c| < 2^53`; false when `10^k` is outside the table. */
function scaledToWord(c: number, k: number): boolean {
  const at = k - POW10_LOW_EXPONENT;
  if (at < 0 || at >= POW10_HIGH.length) return false;
  const ph = POW10_HIGH[at]!;
  const p = c * ph;
  let t = SPLITTER * c;
  const ch = t - (t - c);
  const cl = c - ch;
  t = SPLITTER * ph;
  const qh = t - (t - ph);
  const ql = ph - qh;
  const low = ch * qh - p + ch * ql + cl * qh + cl * ql + c * POW10_LOW[at]!;
  const high = p + low;
  W[0] = high;
  W[1] = low - (high - p);
  return true;
}

/**
 * The double nearest to every value within `bound` of the double word `high + low`, or NaN when
 * that interval reaches the edge of `high`'s rounding cell (or `high` is zero, tiny or huge): then
 * the value must be computed exactly.
 */
export function decide(high: number, low: number, bound: number): number {
  const magnitude = Math.abs(high);
  if (!(magnitude >= 1e-250 && magnitude <= 1e250)) return NaN;
  F64[0] = magnitude;
  const top = U32[HIGH_WORD]!;
  const powerOfTwo = (top & 0xfffff) === 0 && U32[LOW_WORD] === 0;
  // Half a unit in the last place of `high`: 2^(exponent − 53), built from the exponent bits.
  U32[HIGH_WORD] = ((top >>> 20) - 53) << 20;
  U32[LOW_WORD] = 0;
  const half = F64[0]!;
  // Toward zero, the doubles below a power of two lie twice as close.
  const halfTowardZero = powerOfTwo ? half / 2 : half;
  const away = high > 0 ? low : -low;
  return away + bound < half && away - bound > -halfTowardZero ? high : NaN;
}

const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const HIGH_WORD = LITTLE_ENDIAN ? 1 : 0;
const LOW_WORD = LITTLE_ENDIAN ? 0 : 1;

/**
 * 10^k as a double word `POW10_HIGH[k − POW10_LOW_EXPONENT] + POW10_LOW[…]`, for k in
 * [-290, 300], within 2^-106 of 10^k: computed once from exact integers.
 */
const POW10_LOW_EXPONENT = -290;
const POW10_HIGH_EXPONENT = 300;
const POW10_HIGH = new Float64Array(POW10_HIGH_EXPONENT - POW10_LOW_EXPONENT + 1);
const POW10_LOW = new Float64Array(POW10_HIGH.length);
for (let k = POW10_LOW_EXPONENT; k <= POW10_HIGH_EXPONENT; k++) {
  const i = k - POW10_LOW_EXPONENT;
  if (k >= 0) {
    const n = 10n ** BigInt(k);
    const high = Number(n);
    POW10_HIGH[i] = high;
    POW10_LOW[i] = Number(n - BigInt(high));
  } else {
    // 10^k = q × 2^-m, q = ⌊2^m / 10^-k⌋ of about 130 bits (its truncation is far below 2^-106).
    const d = 10n ** BigInt(-k);
    const m = d.toString(2).length + 130;
    const q = (1n << BigInt(m)) / d;
    const high = Number(q);
    const scale = (x: number): number => x * 2 ** -(m >> 1) * 2 ** -(m - (m >> 1));
    POW10_HIGH[i] = scale(high);
    POW10_LOW[i] = scale(Number(q - BigInt(high)));
  }
}
