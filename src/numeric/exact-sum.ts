import { Decimal40, ZERO40 } from './decimal40.js';
import { unpack } from './decimal40-parts.js';
import { round40 } from './decimal40-rounding.js';
import { POW10 as POWERS_OF_TEN } from './nearest-double.js';

// The hot loops read these as this module's own constants: an imported binding is read through
// a cell, with a check that it is initialised, at every use (and so is an imported floorDiv).
const BASE = 1e7;
const INV_BASE = 1e-7;
const POW10: readonly number[] = POWERS_OF_TEN;

/**
 * Terms below 10^14 a column may take before its carries must be passed on: 80 of them, plus a
 * carry from below, stay under 2^53, so every column sum is an exact float64 integer.
 */
const LOAD_LIMIT = 80;

/**
 * The carried columns of the sum being read, most significant first, as the reading rounds them:
 * one buffer for every sum (a reading is over before the next starts).
 */
let reading = new Float64Array(32);

/**
 * An exact sum of decimals and of products of decimals, with no rounding until it is read.
 *
 * It is a row of base-10^7 columns at fixed powers of ten (column `j` weighs
 * `10^(7 × (j + offset))`) whose carries are put off: a {@link Decimal40} is added as its six
 * limbs, each times `10^r` for its exponent's place within a column (below 10^13 each), and a
 * product as its schoolbook terms (limb products below 10^14), straight into their columns. Only
 * a reading ({@link value}), or a column near its exact limit, passes the carries on. A reading
 * rounds the exact sum once, half to even, to 40 digits.
 *
 * An addition costs a few multiply-adds and no allocation, where a {@link Decimal40} sum costs an
 * aligned addition, a rounding and a new value. The PnL chart's running sums keep their terms
 * in one, and its unrealized PnL is summed in one when a reading must be exact (see
 * `ChartSums` and `UnrealizedBook`); taking away exactly what was added
 * leaves exactly zero.
 *
 * @example
 * const sum = new ExactSum();
 * sum.addProduct(new Decimal40('3'), new Decimal40('0.1'));
 * sum.add(new Decimal40('0.05'), -1);
 * sum.value().toString(); // '0.25'
 */
export class ExactSum {
  /**
   * The columns, low powers first; integers below 2^53 in magnitude, carried or not. A plain
   * array of doubles ({@link zeroColumns}), not a Float64Array: a typed array of this length
   * keeps its bytes outside V8's heap, and allocating one costs about a microsecond, which a
   * rank's ten thousand followers, each with a dozen sums, would pay a hundred thousand times.
   */
  private columns = zeroColumns(32);
  /** Column `j` weighs `10^(7 × (j + offset))`. */
  private offset = 0;
  /** Columns in use, `[low, high]`; none when `low > high`. Columns outside are zero. */
  private low = 0;
  private high = -1;
  /** At most this many terms below 10^14 make up any column since its carries were passed on. */
  private load = 0;

  /** Adds `sign × d` (`sign` 1 or -1). */
  add(d: Decimal40, sign = 1): void {
    if (d.c0 === 0) return;
    const r = mod7(d.e);
    if (this.load + 1 > LOAD_LIMIT) this.carry();
    // c5 lands in the column of 10^(e − r), the other limbs in the five above it.
    const at = this.columnsAt(columnOf(d.e - r), 5);
    const factor = sign * d.s * POW10[r]!;
    const c = this.columns;
    c[at] = c[at]! + d.c5 * factor;
    c[at + 1] = c[at + 1]! + d.c4 * factor;
    c[at + 2] = c[at + 2]! + d.c3 * factor;
    c[at + 3] = c[at + 3]! + d.c2 * factor;
    c[at + 4] = c[at + 4]! + d.c1 * factor;
    c[at + 5] = c[at + 5]! + d.c0 * factor;
    this.load++;
  }

  /** Adds `sign × a × b` exactly (`sign` 1 or -1). */
  addProduct(a: Decimal40, b: Decimal40, sign = 1): void {
    if (a.c0 === 0 || b.c0 === 0) return;
    // The shorter factor (fewer nonzero limbs) takes the exponent's place within a column,
    // `10^r`, and is spread over one more limb; then every limb product is below 10^14.
    let short = b;
    let long = a;
    let shortLimbs = significantLimbs(b);
    let longLimbs = significantLimbs(a);
    if (longLimbs < shortLimbs) {
      short = a;
      long = b;
      const n = shortLimbs;
      shortLimbs = longLimbs;
      longLimbs = n;
    }
    const exponent = a.e + b.e;
    const r = mod7(exponent);
    unpack(long, LONG);
    unpack(short, SHORT);
    const factor = POW10[r]!;
    let carry = 0;
    for (let t = shortLimbs; t >= 1; t--) {
      const v = SHORT[t - 1]! * factor + carry;
      carry = floorDiv(v, BASE, INV_BASE);
      SHORT_SHIFTED[t] = v - carry * BASE;
    }
    SHORT_SHIFTED[0] = carry;
    if (this.load + shortLimbs + 1 > LOAD_LIMIT) this.carry();
    // SHORT_SHIFTED[t] and the long factor's limb q meet in the column of 10^(7 × (K + 11 − t − q)),
    // K = (exponent − r) / 7: the limbs of a coefficient weigh 10^35, 10^28, … 10^0.
    const lowest = columnOf(exponent - r) + 12 - shortLimbs - longLimbs;
    const at = this.columnsAt(lowest, shortLimbs + longLimbs - 1);
    const top = at + shortLimbs + longLimbs - 1;
    const c = this.columns;
    const s = sign * a.s * b.s;
    for (let t = 0; t <= shortLimbs; t++) {
      const x = s * SHORT_SHIFTED[t]!;
      if (x === 0) continue;
      for (let q = 0; q < longLimbs; q++) c[top - t - q] = c[top - t - q]! + x * LONG[q]!;
    }
    this.load += shortLimbs + 1;
  }

  /**
   * Adds `sign × other`, exactly (`sign` 1 or -1): a reading of sums of sums, such as the PnL
   * chart's realized PnL, its gains less its fees. Passes `other`'s carries on, which leaves
   * its value as it is.
   */
  addSum(other: ExactSum, sign = 1): void {
    other.carry();
    if (other.low > other.high) return;
    // Carried columns are below 10^7 in magnitude: each counts as one term.
    if (this.load + 1 > LOAD_LIMIT) this.carry();
    const span = other.high - other.low;
    const at = this.columnsAt(other.low + other.offset, span);
    const c = this.columns;
    const o = other.columns;
    for (let j = 0; j <= span; j++) c[at + j] = c[at + j]! + sign * o[other.low + j]!;
    this.load++;
  }

  /**
   * Adds `sign × other × b`, exactly (`sign` 1 or -1): the PnL chart's bot fees, a rate times a
   * sum of amounts. Each of `other`'s carried columns (an integer below 10^7 in magnitude) is
   * taken as a decimal of at most seven digits, times `b`. Made for readings that must be exact,
   * which are rare: it parses a decimal for each column.
   */
  addSumTimes(other: ExactSum, b: Decimal40, sign = 1): void {
    other.carry();
    for (let j = other.low; j <= other.high; j++) {
      const column = other.columns[j]!;
      if (column !== 0) this.addProduct(new Decimal40(`${column}e${7 * (j + other.offset)}`), b, sign);
    }
  }

  /** The sum rounded half to even to 40 digits (`round40` builds a Decimal40: see `decimal40.ts`). */
  value(): Decimal40 {
    this.carry();
    if (this.low > this.high) return ZERO40;
    const c = this.columns;
    const length = this.high - this.low + 1;
    if (reading.length < length) reading = new Float64Array(2 * length);
    const out = reading;
    const lowExponent = 7 * (this.low + this.offset);
    const top = c[this.high]!;
    if (top > 0) {
      for (let t = 0; t < length; t++) out[t] = c[this.high - t]!;
      return round40(out, length, false, lowExponent, 1) as Decimal40;
    }
    // Negative: the top column holds the sign, those below are in [0, BASE); the magnitude is
    // 0 minus the sum, borrowing upwards.
    let borrow = 0;
    for (let j = this.low; j < this.high; j++) {
      let v = -c[j]! - borrow;
      borrow = v < 0 ? 1 : 0;
      if (borrow === 1) v += BASE;
      out[this.high - j] = v;
    }
    out[0] = -top - borrow;
    return round40(out, length, false, lowExponent, -1) as Decimal40;
  }

  /** Whether the sum is exactly zero (it passes the carries on). */
  isZero(): boolean {
    this.carry();
    return this.low > this.high;
  }

  /** Becomes a copy of `other`: the same columns, so the same value (the copier's lowest cash). */
  setTo(other: ExactSum): void {
    this.clear();
    if (this.columns.length < other.columns.length) this.columns = zeroColumns(other.columns.length);
    const c = this.columns;
    const o = other.columns;
    for (let j = other.low; j <= other.high; j++) c[j] = o[j]!;
    this.offset = other.offset;
    this.low = other.low;
    this.high = other.high;
    this.load = other.load;
  }

  /** Back to zero. */
  clear(): void {
    if (this.low <= this.high) this.columns.fill(0, this.low, this.high + 1);
    this.low = 0;
    this.high = -1;
    this.load = 0;
  }

  /**
   * Passes every column's carry on: all columns but the top one end in [0, BASE), the top one
   * (in (−BASE, BASE)) holds the sign; zero columns at either end leave the range in use.
   */
  private carry(): void {
    this.load = 1;
    if (this.low > this.high) return;
    let c = this.columns;
    let carry = 0;
    for (let j = this.low; j < this.high; j++) {
      const v = c[j]! + carry;
      if (v >= 0 && v < BASE) {
        carry = 0;
        c[j] = v;
        continue;
      }
      carry = floorDiv(v, BASE, INV_BASE);
      c[j] = v - carry * BASE;
    }
    let top = c[this.high]! + carry;
    while (top >= BASE || top <= -BASE) {
      carry = floorDiv(top, BASE, INV_BASE);
      c[this.high] = top - carry * BASE;
      this.reserve(this.high + this.offset + 1, 0);
      c = this.columns;
      top = carry;
    }
    c[this.high] = top;
    while (this.high >= this.low && c[this.high] === 0) this.high--;
    while (this.low < this.high && c[this.low] === 0) this.low++;
    if (this.low > this.high) this.clear();
  }

  /** The index of column `from`, with `[from, from + span]` in use (see {@link reserve}). */
  private columnsAt(from: number, span: number): number {
    const at = from - this.offset;
    return at >= this.low && at + span <= this.high ? at : this.reserve(from, span);
  }

  /**
   * Makes room for the columns `[from, from + span]` (powers `10^(7 × column)`), adds them to
   * the range in use, and gives the index of column `from`.
   */
  private reserve(from: number, span: number): number {
    if (this.low > this.high) {
      // Empty: centre the new columns in the array.
      if (this.columns.length < 2 * (span + 1)) this.columns = zeroColumns(4 * (span + 1));
      this.offset = from - ((this.columns.length - span - 1) >> 1);
      this.low = from - this.offset;
      this.high = this.low + span;
      return this.low;
    }
    let at = from - this.offset;
    if (at < 0 || at + span >= this.columns.length) {
      this.grow(Math.min(at, this.low), Math.max(at + span, this.high));
      at = from - this.offset;
    }
    if (at < this.low) this.low = at;
    if (at + span > this.high) this.high = at + span;
    return at;
  }

  /** A larger array with the columns in use, and room for the indices `[from, to]` (old offset). */
  private grow(from: number, to: number): void {
    const needed = to - from + 1;
    const columns = zeroColumns(2 * Math.max(needed, this.columns.length));
    // Centred: room on both sides.
    const shift = ((columns.length - needed) >> 1) - from;
    for (let j = this.low; j <= this.high; j++) columns[j + shift] = this.columns[j]!;
    this.columns = columns;
    this.offset -= shift;
    this.low += shift;
    this.high += shift;
  }
}

/**
 * Zeros in an array whose elements V8 keeps as unboxed doubles: made with a fraction, which fixes
 * the elements kind (kinds never go back), then cleared. Every sum's columns are copies of it, so
 * the loops over them see one kind only.
 */
const ZEROS: number[] = [0.5];
ZEROS[0] = 0;

/** `length` zero columns (a copy of {@link ZEROS}). */
function zeroColumns(length: number): number[] {
  while (ZEROS.length < length) ZEROS.push(0);
  return ZEROS.slice(0, length);
}

/** `e mod 7` in [0, 7), for negative `e` too (and never -0). */
function mod7(e: number): number {
  const r = e % 7;
  return r < 0 ? r + 7 : r | 0;
}

/**
 * The column of `10^exponent`, for an `exponent` divisible by 7, as a small integer: a column
 * index feeds the exponent of a reading, and one fractional-looking (float64) exponent stored in
 * a Decimal40 would make V8 box the exponent of every Decimal40 (they share one shape).
 */
function columnOf(exponent: number): number {
  return (exponent / 7) | 0;
}

/** The limbs of `d`'s coefficient up to its last nonzero one (1 to 6). */
function significantLimbs(d: Decimal40): number {
  if (d.c5 !== 0) return 6;
  if (d.c4 !== 0) return 5;
  if (d.c3 !== 0) return 4;
  if (d.c2 !== 0) return 3;
  return d.c1 !== 0 ? 2 : 1;
}

// Scratch limbs of addProduct's factors, the shorter one also times `10^r` (one limb more).
const LONG = new Float64Array(6);
const SHORT = new Float64Array(6);
const SHORT_SHIFTED = new Float64Array(7);

/** `floor(v / unit)` exactly, as in `decimal40-rounding.ts` (a copy, see BASE above). */
function floorDiv(v: number, unit: number, inverse: number): number {
  const q = Math.floor(v * inverse);
  const rest = v - q * unit;
  return rest < 0 ? q - 1 : rest >= unit ? q + 1 : q;
}
