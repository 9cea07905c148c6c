/**
 * UnrealizedBook (src/engine/unrealized.ts) and the double-word helpers it is built on
 * (src/numeric/double-word.ts).
 *
 * - The helpers (`toWord`, `rawToWord`, `addWords`, `multiplyWords`) against decimal.js at 4,000
 *   digits, which holds every value here exactly: each result `word[0] + word[1]` must lie within
 *   2^-100 of the exact value, relatively (the bound the book's error analysis assumes).
 * - `decide` against exact midpoints: when it answers a double, that double must be the nearest
 *   one to the double word and to both ends of the interval `± bound`.
 * - The book against a reference: after every reading, `unrealized` must be the nearest double
 *   to U40, the open deals' terms `qty × price − invested` added up in deal order as the model's
 *   arithmetic does it (every product, difference and addition rounded half to even to 40
 *   digits), and `total` the nearest double to `R40.plus(U40)`, R40 being the realized PnL (the
 *   ChartSums of the replay, fed gains and losses), exact and rounded likewise, whichever path
 *   (double word or exact) the reading took.
 *
 * Runs and seed: COPYSIM_PROPERTY_RUNS and COPYSIM_PROPERTY_SEED (test/numeric/decimal40-cases.ts).
 *
 * Exact doubles: read from their bits (test/support/exact-double.ts).
 */
import { Decimal as DecimalJs } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChartSums } from '../../src/engine/chart-sums.js';
import type { Deal } from '../../src/engine/deal.js';
import { KnownPrices, type PriceBook } from '../../src/engine/known-prices.js';
import { UnrealizedBook } from '../../src/engine/unrealized.js';
import { toJsonNumber } from '../../src/numeric/decimal.js';
import { Decimal40, ZERO40 } from '../../src/numeric/decimal40.js';
import {
  accumulate,
  accumulateKept,
  addWords,
  decide,
  divideWords,
  doubleWord,
  multiplyWords,
  rawToWord,
  toWord,
  type DoubleWord,
} from '../../src/numeric/double-word.js';
import type { Swap } from '../../src/model/tape.js';
import { awayFromZero, bitsOf, exactText, fromBits } from '../support/exact-double.js';
import { digitsArb, PROPERTY_RUNS, PROPERTY_SEED, spell, spellingArb } from '../numeric/decimal40-cases.js';

/** Exact for everything here: the widest value, a product of two double words near 10^±100, needs under 1,500 digits. */
const Wide = DecimalJs.clone({ precision: 4000, rounding: DecimalJs.ROUND_HALF_EVEN, toExpNeg: -9e15, toExpPos: 9e15 });
type WideValue = InstanceType<typeof Wide>;

const PARAMS = { seed: PROPERTY_SEED, numRuns: PROPERTY_RUNS * 2, includeErrorInReport: true };

// ---- exact doubles ------------------------------------------------------------------------------

/** The exact value of a finite double. */
function exactOf(x: number): WideValue {
  return new Wide(exactText(x));
}

/** The value of a double word, exactly. */
function wordValue(high: number, low: number): WideValue {
  return exactOf(high).plus(exactOf(low));
}

/** The next double toward zero (x finite, nonzero). */
function towardZero(x: number): number {
  return fromBits(bitsOf(x) - 1n);
}

/** Half the gap from x to its neighbour away from zero (exact: Sterbenz, then a halving). */
function halfGapAway(x: number): number {
  return Math.abs(awayFromZero(x) - x) / 2;
}

/** Half the gap from x to its neighbour toward zero: half of halfGapAway just above a power of two. */
function halfGapToward(x: number): number {
  return Math.abs(x - towardZero(x)) / 2;
}

/**
 * True when the exact value v rounds to the double r (nonzero, normal) to nearest, ties to even:
 * v lies strictly between r's midpoints with its neighbours, or on one of them with r even.
 */
function roundsTo(v: WideValue, r: number): boolean {
  if (v.isZero() || v.isNegative() !== r < 0) return false;
  const at = exactOf(r).abs();
  const lowMid = at.plus(exactOf(towardZero(r)).abs()).div(2);
  const highMid = at.plus(exactOf(awayFromZero(r)).abs()).div(2);
  const m = v.abs();
  if (m.gt(lowMid) && m.lt(highMid)) return true;
  return (m.eq(lowMid) || m.eq(highMid)) && (bitsOf(r) & 1n) === 0n;
}

/** 2^-100 exactly (5^100 × 10^-100). */
const TWO_M100 = new Wide(`${5n ** 100n}e-100`);

/** |actual − exact| / |exact|, as log2 (for messages). */
function log2RelativeError(actual: WideValue, exact: WideValue): number {
  const error = actual.minus(exact).abs();
  if (error.isZero()) return -Infinity;
  return Math.log2(error.div(exact.abs()).toNumber());
}

/** Where the helpers under test write their results. */
const word = doubleWord();

/** Throws unless the double word in {@link word} is within 2^-100 of `exact`, relatively, and normalised. */
function expectWordNear(what: string, exact: WideValue): void {
  const high = word[0]!;
  const low = word[1]!;
  const value = wordValue(high, low);
  const error = value.minus(exact).abs();
  if (error.gt(exact.abs().times(TWO_M100))) {
    throw new Error(
      `${what}: (${high}, ${low}) is 2^${log2RelativeError(value, exact).toFixed(2)} of the exact ${exact.toString()} away, ` +
        `above 2^-100`,
    );
  }
  // A normalised word: the low part is within half a unit in the last place of the high part.
  if (high + low !== high) throw new Error(`${what}: (${high}, ${low}) is not normalised`);
}

/** The exact value `new Decimal40(raw)` has. */
function decimalValue(raw: Decimal40 | string | number): WideValue {
  return new Wide(new Decimal40(raw).toString());
}

// ---- generators -------------------------------------------------------------------------------

const signArb = fc.constantFrom('', '-');

/** A Decimal40 of 1 to 40 digits, `±digits × 10^exponent`, exponent in [min, max]. */
function decimal40Arb(min: number, max: number, signs: fc.Arbitrary<string> = signArb): fc.Arbitrary<Decimal40> {
  return fc
    .tuple(signs, digitsArb, fc.integer({ min, max }))
    .map(([sign, digits, exponent]) => new Decimal40(`${sign}${digits}e${exponent}`));
}

/** 1 to 15 digits, the first nonzero. */
const shortDigitsArb = fc
  .tuple(fc.integer({ min: 1, max: 9 }), fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 14, size: 'max' }))
  .map(([first, rest]) => `${first}${rest.join('')}`);

/** A decimal string of at most 15 significant digits, in any spelling the grammar allows. */
function shortStringArb(
  minExponent: number,
  maxExponent: number,
  negative: fc.Arbitrary<boolean> = fc.boolean(),
): fc.Arbitrary<string> {
  return fc
    .tuple(negative, shortDigitsArb, fc.integer({ min: minExponent, max: maxExponent }), spellingArb)
    .map(([isNegative, digits, exponent, how]) => spell({ negative: isNegative, digits, exponent }, how));
}

/** A double word `(high, low)`: |high| in [1e-100, 1e100], low anywhere within half a unit in high's last place. */
const fractionArb = fc.oneof(
  fc.double({ min: -1, max: 1, noNaN: true }),
  fc.constantFrom(-1, -0.5, 0, 0.5, 1, 1 - 2 ** -52, -(1 - 2 ** -52)),
);
function wordArb(
  sign: fc.Arbitrary<number> = fc.constantFrom(1, -1),
  minMagnitude = 1e-100,
  maxMagnitude = 1e100,
): fc.Arbitrary<readonly [number, number]> {
  return fc
    .tuple(sign, fc.double({ min: minMagnitude, max: maxMagnitude, noNaN: true }), fractionArb)
    .map(([s, magnitude, f]) => {
      const high = s * magnitude;
      // f × a power of two: exact. Toward zero the gap may be half as wide (just above a power of two).
      const low = f >= 0 ? f * halfGapAway(high) * s : f * halfGapToward(high) * s;
      return [high, low] as const;
    });
}

// ---- toWord and rawToWord: hand-computed ----------------------------------------------------------

describe('toWord and rawToWord: hand-computed', () => {
  it('0.1: the high part is the double 0.1, and high + low lies within 2^-100 of 1/10', () => {
    toWord(word, new Decimal40('0.1'));
    // The double 0.1 is 3602879701896397 × 2^-55 = 0.1000000000000000055511151231257827…, above
    // 1/10 by about 5.55e-18: the low part takes that back, to within 2^-100 of 1/10.
    expect(word[0]).toBe(0.1);
    expect(word[1]! < 0).toBe(true);
    expect(word[1]!).toBeCloseTo(-5.551115123125783e-18, 30);
    expectWordNear('toWord(0.1)', new Wide(1).div(10));
  });

  it('a full 40-digit value: 1234567890123456789012345678901234567890e-20', () => {
    const d = new Decimal40('1234567890123456789012345678901234567890e-20');
    expect(d.toString()).toBe('12345678901234567890.1234567890123456789');
    toWord(word, d);
    // 12345678901234567890.12… lies between 2^63 and 2^64, where doubles are 2048 apart; the
    // nearest is 12345678901234567168 (= 6028163525993441 × 2^11), and the rest,
    // 722.1234567890123456789, is the low part (to within half a unit of it, 5.7e-14).
    expect(word[0]).toBe(12345678901234567168);
    expectWordNear(
      'toWord(1234567890123456789012345678901234567890e-20)',
      new Wide('12345678901234567890.1234567890123456789'),
    );
  });

  it('a negative value: -0.000123456789', () => {
    toWord(word, new Decimal40('-0.000123456789'));
    // 9 digits: one exact product of the coefficient and the double word of a power of ten.
    expect(word[0]).toBe(-0.000123456789);
    expectWordNear('toWord(-0.000123456789)', new Wide('-0.000123456789'));
  });

  it('a negative full 40-digit value: -98765432109876543210987654321098765432.1', () => {
    toWord(word, new Decimal40('-98765432109876543210987654321098765432.1'));
    expect(word[0]).toBe(-98765432109876543210987654321098765432.1);
    expectWordNear(
      'toWord(-98765432109876543210987654321098765432.1)',
      new Wide('-98765432109876543210987654321098765432.1'),
    );
  });

  it('zero: (0, 0)', () => {
    toWord(word, ZERO40);
    expect(word[0]).toBe(0);
    expect(word[1]).toBe(0);
    toWord(word, new Decimal40('-0.000'));
    expect(word[0] === 0 && word[1] === 0).toBe(true);
  });

  it('rawToWord reads strings and numbers as Decimal40 does', () => {
    // '3e-7' (a short string), 12.5 (exactly a double: low 0), 0.1 (the number reads as '0.1',
    // i.e. 1/10, not as the double's own value 0.1000000000000000055…), 2^53 + 2 (a safe integer).
    rawToWord(word, '3e-7');
    expectWordNear("rawToWord('3e-7')", new Wide('3e-7'));
    rawToWord(word, 12.5);
    expect([word[0], word[1]]).toEqual([12.5, 0]);
    rawToWord(word, 0.1);
    expect(word[0]).toBe(0.1);
    expectWordNear('rawToWord(0.1)', new Wide('0.1'));
    rawToWord(word, -0.1);
    expectWordNear('rawToWord(-0.1)', new Wide('-0.1'));
    rawToWord(word, 9007199254740994);
    expect([word[0], word[1]]).toEqual([9007199254740994, 0]);
  });

  it('rawToWord reads a number whose shortest text has 16 digits (1/3) as that text', () => {
    // 1/3 as a double prints as 0.3333333333333333 (16 digits): its value for Decimal40 is that text.
    rawToWord(word, 1 / 3);
    expectWordNear('rawToWord(1 / 3)', new Wide('0.3333333333333333'));
  });
});

// ---- decide: hand-computed -------------------------------------------------------------------------

describe('decide: hand-computed', () => {
  // In [1, 2) doubles are 2^-52 apart: half a unit in the last place is 2^-53.
  it('a double word well inside its cell gives its high part', () => {
    expect(decide(1.5, 2 ** -60, 2 ** -60)).toBe(1.5);
    expect(decide(-1.5, -(2 ** -55), 2 ** -55)).toBe(-1.5);
    expect(decide(123456.789, 0, 0)).toBe(123456.789);
  });

  it('a tie (low exactly half a unit in the last place) is NaN', () => {
    // 1.5 + 2^-53 is the midpoint of 1.5 and 1.5 + 2^-52: no margin, whatever the bound.
    expect(1.5 + 2 ** -53).toBe(1.5); // ties to even: the double sum cannot tell
    expect(decide(1.5, 2 ** -53, 0)).toBeNaN();
    expect(decide(1.5, -(2 ** -53), 0)).toBeNaN();
  });

  it('a bound reaching the edge of the cell is NaN; one short of it is not', () => {
    // 2^-54 + 2^-54 = 2^-53: the interval reaches the midpoint.
    expect(decide(1.5, 2 ** -54, 2 ** -54)).toBeNaN();
    expect(decide(1.5, 2 ** -54, 2 ** -55)).toBe(1.5);
    expect(decide(1.5, -(2 ** -54), 2 ** -54)).toBeNaN();
    // Low 0 with a bound of half a unit or more.
    expect(decide(1.5, 0, 2 ** -53)).toBeNaN();
  });

  it('below a power of two the cell is half as wide', () => {
    // Above 1 the next double is 1 + 2^-52 (midpoint 1 + 2^-53); below, 1 − 2^-53 (midpoint 1 − 2^-54).
    // 3 × 2^-56 = 0.75 × 2^-54 is inside on both sides.
    expect(decide(1, 3 * 2 ** -56, 0)).toBe(1);
    expect(decide(1, -3 * 2 ** -56, 0)).toBe(1);
    // 3 × 2^-55 = 1.5 × 2^-54 = 0.75 × 2^-53: inside above, beyond the midpoint below, where
    // 1 − 3 × 2^-55 is nearer 1 − 2^-53 than 1 (the double subtraction shows it).
    expect(1 - 3 * 2 ** -55).toBe(1 - 2 ** -53);
    expect(decide(1, 3 * 2 ** -55, 0)).toBe(1);
    expect(decide(1, -3 * 2 ** -55, 0)).toBeNaN();
    // Negative: -2's neighbour toward zero is -(2 − 2^-52) (midpoint 2^-53 away), away from zero
    // -(2 + 2^-51) (midpoint 2^-52 away). Low 1.5 × 2^-53 toward zero is outside; away is inside.
    expect(decide(-2, 1.5 * 2 ** -53, 0)).toBeNaN();
    expect(decide(-2, -1.5 * 2 ** -53, 0)).toBe(-2);
    // Not a power of two (1 + 2^-52): the same 1.5 × 2^-54 below is inside (half gap 2^-53 both ways).
    expect(decide(1 + 2 ** -52, -3 * 2 ** -55, 0)).toBe(1 + 2 ** -52);
  });

  it('a zero, tiny or huge high part is NaN', () => {
    expect(decide(0, 0, 0)).toBeNaN();
    expect(decide(1e-300, 0, 0)).toBeNaN();
    expect(decide(-1e300, 0, 0)).toBeNaN();
    expect(decide(Infinity, 0, 0)).toBeNaN();
    expect(decide(1e-249, 0, 0)).toBe(1e-249);
    expect(decide(-1e249, 0, 0)).toBe(-1e249);
  });
});

describe('accumulate and accumulateKept: hand-computed', () => {
  it('a kept term added, then taken away: the sum, and a bound that grows by the term and each addition', () => {
    const sum = new Float64Array(3);
    // A term 3 + 2^-60 within 2^-90 of its exact value, kept at index 1 (high, low, bound).
    const terms = new Float64Array([7, 3, 2 ** -60, 2 ** -90]);
    accumulateKept(sum, terms, 1, 1);
    expect([sum[0], sum[1]]).toEqual([3, 2 ** -60]);
    expect(sum[2]).toBe(2 ** -90 + 3 * 2 ** -100);
    accumulate(sum, 1, 0, 0); // 4 + 2^-60: the bound gains the addition's 4 × 2^-100
    expect([sum[0], sum[1]]).toEqual([4, 2 ** -60]);
    expect(sum[2]).toBe(2 ** -90 + 7 * 2 ** -100);
    accumulateKept(sum, terms, 1, -1); // back to exactly 1; the term's bound counts again
    expect([sum[0], sum[1]]).toEqual([1, 0]);
    expect(sum[2]).toBe(2 * 2 ** -90 + 8 * 2 ** -100);
  });
});

// ---- the helpers: properties ---------------------------------------------------------------------------

describe('double words: properties against decimal.js at 4,000 digits', () => {
  it('toWord: within 2^-100 of the decimal (1 to 40 digits, exponents -60..60, both signs)', () => {
    fc.assert(
      fc.property(decimal40Arb(-60, 60), (d) => {
        toWord(word, d);
        expectWordNear(`toWord(${d.toString()})`, decimalValue(d));
      }),
      PARAMS,
    );
  });

  it('rawToWord: strings of up to 15 significant digits, in every spelling', () => {
    fc.assert(
      fc.property(shortStringArb(-40, 30), (raw) => {
        const exact = decimalValue(raw);
        // Up to 15 digits Decimal40 reads the text exactly.
        expect(exact.eq(new Wide(raw))).toBe(true);
        rawToWord(word, raw);
        expectWordNear(`rawToWord(${JSON.stringify(raw)})`, exact);
      }),
      PARAMS,
    );
  });

  it('rawToWord: numbers made from short decimals (Number("0.000123") and the like)', () => {
    fc.assert(
      fc.property(shortStringArb(-40, 30), (text) => {
        const n = Number(text);
        fc.pre(n !== 0);
        rawToWord(word, n);
        // Its shortest text, which Decimal40 reads: at most 15 digits, so the number's value is the text's.
        const exact = decimalValue(n);
        expect(exact.eq(new Wide(String(n)))).toBe(true);
        expectWordNear(`rawToWord(${String(n)})`, exact);
      }),
      PARAMS,
    );
  });

  it('rawToWord: any double in [1e-40, 1e40] in magnitude, read as its shortest text', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-40, max: 1e40, noNaN: true }), fc.boolean(), (magnitude, negative) => {
        const n = negative ? -magnitude : magnitude;
        rawToWord(word, n);
        const exact = decimalValue(n);
        expect(exact.eq(new Wide(String(n)))).toBe(true);
        expectWordNear(`rawToWord(${String(n)})`, exact);
      }),
      PARAMS,
    );
  });

  /** A scale from y to x: often near 1 (the words overlap), else anywhere in 2^±130. */
  const scaleArb = fc.oneof(
    fc.double({ min: 0.5, max: 2, noNaN: true }),
    fc.double({ min: 1e-40, max: 1e40, noNaN: true }),
  );

  it('addWords: operands of the same sign, relative error within 2^-100', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(1, -1),
        wordArb(fc.constant(1), 1e-30, 1e30),
        scaleArb,
        fractionArb,
        (s, [xh, xl], scale, f) => {
          const yh = xh * scale;
          const yl = f * halfGapToward(yh);
          addWords(word, s * xh, s * xl, s * yh, s * yl);
          const exact = wordValue(s * xh, s * xl).plus(wordValue(s * yh, s * yl));
          expectWordNear(`addWords(${s * xh}, ${s * xl}, ${s * yh}, ${s * yl})`, exact);
        },
      ),
      PARAMS,
    );
  });

  it('addWords: cancelling operands, absolute error within 2^-100 × (|x| + |y|); x − x is 0', () => {
    // y's high part a few units in the last place from −x's, or −x scaled by 1 ± up to 2^-20.
    const nearNegation = fc.oneof(
      fc.integer({ min: -4, max: 4 }).map((k) => (xh: number) => -fromBits(bitsOf(xh) + BigInt(k))),
      fc.double({ min: -(2 ** -20), max: 2 ** -20, noNaN: true }).map((delta) => (xh: number) => -xh * (1 + delta)),
    );
    fc.assert(
      fc.property(wordArb(), nearNegation, fractionArb, ([xh, xl], negate, f) => {
        const yh = negate(xh);
        const yl = f * halfGapToward(yh);
        addWords(word, xh, xl, yh, yl);
        const x = wordValue(xh, xl);
        const y = wordValue(yh, yl);
        const error = wordValue(word[0]!, word[1]!).minus(x.plus(y)).abs();
        if (error.gt(x.abs().plus(y.abs()).times(TWO_M100))) {
          const result = `(${word[0]}, ${word[1]})`;
          throw new Error(`addWords(${xh}, ${xl}, ${yh}, ${yl}) = ${result}: error ${error.toExponential(3)}`);
        }
        addWords(word, xh, xl, -xh, -xl);
        expect(word[0] === 0 && word[1] === 0).toBe(true);
      }),
      PARAMS,
    );
  });

  it('multiplyWords: relative error within 2^-100', () => {
    fc.assert(
      fc.property(wordArb(), wordArb(), ([xh, xl], [yh, yl]) => {
        multiplyWords(word, xh, xl, yh, yl);
        expectWordNear(`multiplyWords(${xh}, ${xl}, ${yh}, ${yl})`, wordValue(xh, xl).times(wordValue(yh, yl)));
      }),
      PARAMS,
    );
  });

  it('divideWords: relative error within 2^-100 (the bound printed-double.ts counts for a quotient)', () => {
    fc.assert(
      fc.property(wordArb(), wordArb(), ([xh, xl], [yh, yl]) => {
        divideWords(word, xh, xl, yh, yl);
        expectWordNear(`divideWords(${xh}, ${xl}, ${yh}, ${yl})`, wordValue(xh, xl).div(wordValue(yh, yl)));
      }),
      PARAMS,
    );
  });

  it('divideWords: hand-computed, 1 / 3 and 2 / (1 + 2^-60)', () => {
    divideWords(word, 1, 0, 3, 0);
    expectWordNear('1 / 3', new Wide(1).div(3));
    expect(word[0]).toBe(1 / 3);
    divideWords(word, 2, 0, 1, 2 ** -60);
    expectWordNear('2 / (1 + 2^-60)', new Wide(2).div(new Wide(1).plus(new Wide(2).pow(-60))));
    expect(word[0]).toBe(2);
    expect(word[1]).toBe(-(2 ** -59));
  });

  it('decide: a double it gives is the nearest to high + low and to both ends of ± bound; well inside the cell it gives one', () => {
    // High parts: any double in [1e-200, 1e200], powers of two (the narrow cell below them) and
    // the doubles just below powers of two. Low parts anywhere in the cell, often on or near its edges.
    const highArb = fc.tuple(
      fc.constantFrom(1, -1),
      fc.oneof(
        fc.double({ min: 1e-200, max: 1e200, noNaN: true }),
        fc.integer({ min: -600, max: 600 }).map((k) => 2 ** k),
        fc.integer({ min: -600, max: 600 }).map((k) => towardZero(2 ** k)),
      ),
    );
    const edgeFractionArb = fc.oneof(
      fractionArb,
      fc.tuple(fc.constantFrom(1, -1), fc.integer({ min: 1, max: 60 })).map(([s, k]) => s * (1 - 2 ** -k)),
    );
    // Bounds: none, or |high| × m × 2^-k (k from 50, wide enough to cross a cell, to 120).
    const boundArb = fc.oneof(
      fc.constant(0),
      fc
        .tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 50, max: 120 }))
        .map(([m, k]) => m * 2 ** -k),
    );
    let decided = 0;
    let undecided = 0;
    fc.assert(
      fc.property(highArb, edgeFractionArb, boundArb, ([s, magnitude], f, relativeBound) => {
        const high = s * magnitude;
        const low = f >= 0 ? f * halfGapAway(high) * s : f * halfGapToward(high) * s;
        const bound = magnitude * relativeBound;
        const r = decide(high, low, bound);
        const v = wordValue(high, low);
        const b = exactOf(bound);
        if (r === r) {
          decided++;
          expect(r).toBe(high);
          for (const [what, x] of [
            ['high + low', v],
            ['high + low − bound', v.minus(b)],
            ['high + low + bound', v.plus(b)],
          ] as const) {
            if (!roundsTo(x, r))
              throw new Error(
                `decide(${high}, ${low}, ${bound}) = ${r}, but ${what} = ${x.toString()} does not round to it`,
              );
          }
        } else {
          undecided++;
          // NaN is allowed only near the cell's edge: within 2^-50 of half a gap, or for a high part out of range.
          const away = exactOf(halfGapAway(high));
          const toward = exactOf(halfGapToward(high));
          const margin = toward.times(new Wide(2).pow(-50));
          const offset = exactOf(low).times(s); // low measured away from zero
          const inside = offset.plus(b).lt(away.minus(margin)) && offset.minus(b).gt(toward.neg().plus(margin));
          if (inside && magnitude >= 1e-250 && magnitude <= 1e250) {
            throw new Error(`decide(${high}, ${low}, ${bound}) is NaN, though the interval lies well inside the cell`);
          }
        }
      }),
      { ...PARAMS, numRuns: PROPERTY_RUNS * 5 },
    );
    // Both answers occur (a coverage check on the generators).
    expect(decided).toBeGreaterThan(PROPERTY_RUNS);
    expect(undecided).toBeGreaterThan(PROPERTY_RUNS / 4);
  });
});

// ---- UnrealizedBook ------------------------------------------------------------------------------------

/** A price as it reaches a valuation: a decimal (made for a trade) or a raw tape value. */
type Price = Decimal40 | string | number;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
/** The fields of a Deal the book reads (a fake deal: plain fields, cast to Deal). */
type BookDeal = Mutable<Pick<Deal, 'index' | 'tokenId' | 'qty' | 'invested' | 'open'>>;

/** A deal with its position and `usd_invested`; `index` orders the deals. */
function newDeal(tokenId: number, qty: Decimal40, invested: Decimal40, index = tokenId): BookDeal {
  return { index, tokenId, qty, invested, open: true };
}

function asDeal(deal: BookDeal): Deal {
  return deal as unknown as Deal;
}

/** Where the book's prices come from, and how a test moves them. */
interface PriceSource {
  readonly book: PriceBook;
  set(tokenId: number, price: Price): void;
}

/**
 * A price book of raw values and decimals: a raw value is its own key (as in KnownPrices); a
 * decimal gets a fresh key below -1 (the key of no valuation), never equal to a price.
 */
class FakePrices implements PriceBook, PriceSource {
  private readonly prices = new Map<number, { key: number | string; price: Price }>();
  private nextKey = -2;
  get book(): PriceBook {
    return this;
  }
  set(tokenId: number, price: Price): void {
    this.prices.set(tokenId, { key: price instanceof Decimal40 ? this.nextKey-- : price, price });
  }
  observe(): boolean {
    throw new Error('not used by the book');
  }
  swapPrice(): Decimal40 {
    throw new Error('not used by the book');
  }
  swapLiquidity(): null {
    throw new Error('not used by the book');
  }
  liquidityOf(): null {
    return null;
  }
  firstSeenOf(): number {
    throw new Error('not used by the book');
  }
  priceOf(tokenId: number): Decimal40 {
    return new Decimal40(this.entry(tokenId).price);
  }
  priceKey(tokenId: number): number | string {
    return this.entry(tokenId).key;
  }
  priceOfKey(): Decimal40 {
    throw new Error('not used by the book');
  }
  priceWord(tokenId: number, out: DoubleWord): void {
    const { price } = this.entry(tokenId);
    if (price instanceof Decimal40) toWord(out, price);
    else rawToWord(out, price);
  }
  priceNumber(): number {
    throw new Error('not used by the book');
  }
  private entry(tokenId: number): { key: number | string; price: Price } {
    const entry = this.prices.get(tokenId);
    if (entry === undefined) throw new Error(`no price for token ${tokenId}`);
    return entry;
  }
}

/** The engine's KnownPrices, fed swaps; a decimal price is observed as its text, then made by priceOf (as a trade does). */
class RealPrices implements PriceSource {
  readonly book = new KnownPrices();
  set(tokenId: number, price: Price): void {
    const swap: Swap = {
      wallet: 'w',
      token: `t${tokenId}`,
      type: 'buy',
      time: 0,
      quantity: 1,
      usd_price: price instanceof Decimal40 ? price.toString() : price,
    };
    this.book.observe(tokenId, swap);
    if (price instanceof Decimal40) this.book.priceOf(tokenId);
  }
}

/** The exact value rounded half to even to 40 digits, as a Decimal40 (which then holds it exactly). */
function round40(exact: WideValue): Decimal40 {
  return new Decimal40(exact.toSignificantDigits(40, Wide.ROUND_HALF_EVEN).toString());
}

/**
 * A book with its deals, prices and realized PnL (a ChartSums, as the replay keeps it),
 * following the replay's protocol, and the reference: after every reading, with U40 the model's
 * sum ({@link Harness.modelSum}) and R40 = round40(Σ realized terms), `unrealized` must be the
 * nearest double to U40 (0 with no open deal) and `total` the nearest double to `R40.plus(U40)`
 * (Decimal40: rounded half to even to 40 digits).
 */
class Harness {
  readonly book: UnrealizedBook;
  readonly realized = new ChartSums(null);
  readonly deals = new Map<number, BookDeal>();
  private readonly price = new Map<number, WideValue>();
  private realizedExact = new Wide(0);
  private dealsOpened = 0;
  exactPath = 0;
  doubleWordPath = 0;

  constructor(readonly prices: PriceSource = new FakePrices()) {
    this.book = new UnrealizedBook(prices.book);
  }

  /** A market swap moves a token's price; an open deal in it is flagged. */
  move(tokenId: number, price: Price): void {
    this.prices.set(tokenId, price);
    this.price.set(tokenId, decimalValue(price));
    const deal = this.deals.get(tokenId);
    if (deal !== undefined) this.book.priceMoved(deal.tokenId);
  }

  /** Adds terms to the realized PnL (a trade's gain, its fees with sign -1). */
  addRealized(...terms: Decimal40[]): void {
    for (const term of terms) {
      // A gain as a sell's amount, a loss as its cost (no fees).
      if (term.isNegative()) this.realized.addTrade(ZERO40, term.neg(), ZERO40);
      else this.realized.addTrade(term, ZERO40, ZERO40);
      this.realizedExact = this.realizedExact.plus(decimalValue(term));
    }
  }

  /** A trade that opens the deal or leaves it open with a new position and `usd_invested`, then a reading. */
  trade(tokenId: number, qty: Decimal40, invested: Decimal40, ...realized: Decimal40[]): void {
    let deal = this.deals.get(tokenId);
    if (deal === undefined) {
      deal = newDeal(tokenId, qty, invested, this.dealsOpened++);
      this.deals.set(tokenId, deal);
    } else {
      deal.qty = qty;
      deal.invested = invested;
    }
    this.addRealized(...realized);
    this.book.traded(asDeal(deal));
    this.read();
  }

  /** A trade that closes the deal, then a reading. */
  close(tokenId: number, ...realized: Decimal40[]): void {
    const deal = this.deals.get(tokenId);
    this.addRealized(...realized);
    if (deal !== undefined) {
      deal.open = false;
      this.book.close(asDeal(deal));
      this.deals.delete(tokenId);
    }
    this.read();
  }

  /** The exact sum of the open deals' terms, but that of token `skip`'s deal. */
  exactSum(skip?: number): WideValue {
    let sum = new Wide(0);
    for (const [tokenId, deal] of this.deals) {
      if (tokenId === skip) continue;
      sum = sum.plus(decimalValue(deal.qty).times(this.price.get(tokenId)!).minus(decimalValue(deal.invested)));
    }
    return sum;
  }

  /**
   * The model's sum: for the open deals in deal order, `qty × price − invested`, each product,
   * difference and addition rounded half to even to 40 digits (decimal.js at 40 digits, which
   * the Decimal40 operations equal).
   */
  modelSum(): Decimal40 {
    let sum = ZERO40;
    for (const deal of [...this.deals.values()].sort((a, b) => a.index - b.index)) {
      const price = new Decimal40(this.price.get(deal.tokenId)!.toString());
      sum = sum.plus(deal.qty.times(price).minus(deal.invested));
    }
    return sum;
  }

  /** A reading, checked against the reference. */
  read(...realized: Decimal40[]): void {
    this.addRealized(...realized);
    const before = this.book.exactReadings;
    this.realized.read();
    this.book.read(this.realized);
    if (this.book.exactReadings > before) this.exactPath++;
    else if (this.deals.size > 0) this.doubleWordPath++;
    const exact = this.exactSum();
    const s40 = this.modelSum();
    const r40 = round40(this.realizedExact);
    const unrealized = this.deals.size === 0 ? 0 : toJsonNumber(s40);
    const total = toJsonNumber(r40.plus(s40));
    const state = (): string =>
      [...this.deals.values()]
        .map(
          (d) =>
            `{token ${d.tokenId}: qty ${d.qty.toString()}, invested ${d.invested.toString()}, price ${this.price.get(d.tokenId)!.toString()}}`,
        )
        .join(', ');
    if (!Object.is(this.book.unrealized, unrealized) || !Object.is(this.book.total, total)) {
      throw new Error(
        `read over ${state()}, realized ${this.realizedExact.toString()}: exact sum ${exact.toString()}, the model's ${s40.toString()}; ` +
          `expected unrealized ${unrealized}, total ${total}; got ${this.book.unrealized}, ${this.book.total} ` +
          `(exact readings ${this.book.exactReadings})`,
      );
    }
    // toJsonNumber's double is the nearest one (a check of the reference itself).
    if (!s40.isZero() && this.deals.size > 0 && !roundsTo(new Wide(s40.toString()), unrealized)) {
      throw new Error(`the reference ${unrealized} is not the nearest double to ${s40.toString()}`);
    }
    // The realized PnL the chart prints beside them.
    const realizedPrinted = this.realized.realizedPnl;
    if (!Object.is(realizedPrinted, toJsonNumber(r40))) {
      throw new Error(
        `ChartSums' realized PnL of ${this.realizedExact.toString()} (40 digits ${r40.toString()}): ${realizedPrinted}, expected ${toJsonNumber(r40)}`,
      );
    }
  }
}

const d40 = (text: string): Decimal40 => new Decimal40(text);

describe('UnrealizedBook: hand-written scenarios', () => {
  it('with no open deal, unrealized is 0 and total is the realized PnL', () => {
    const h = new Harness();
    h.read(d40('123.456'));
    expect([h.book.unrealized, h.book.total]).toEqual([0, 123.456]);
    // Open a deal, then close it: the sum is empty again. Realized 123.456 − 110.956 = 12.5.
    h.move(0, '0.5');
    h.trade(0, d40('1000'), d40('400'), d40('-110.956'));
    // 1000 × 0.5 − 400 = 100; total 112.5.
    expect([h.book.unrealized, h.book.total]).toEqual([100, 112.5]);
    // Realized 12.5 − 19.75 = −7.25.
    h.close(0, d40('-19.75'));
    expect([h.book.unrealized, h.book.total]).toEqual([0, -7.25]);
    // −7.25 + 7.35 = 0.1 exactly: the double 0.1.
    h.read(d40('7.35'));
    expect([h.book.unrealized, h.book.total]).toEqual([0, 0.1]);
    expect(h.book.total).toBe(toJsonNumber(d40('0.1')));
  });

  it('ordinary values are decided from the double words: no exact reading', () => {
    const h = new Harness();
    h.move(0, '0.3');
    h.move(1, 0.000512);
    h.move(2, d40('0.75'));
    // 1000 × 0.3 − 250 = 50.
    h.trade(0, d40('1000'), d40('250'));
    expect([h.book.unrealized, h.book.total]).toEqual([50, 50]);
    // 2,500,000 × 0.000512 − 1234.5678 = 1280 − 1234.5678 = 45.4322; sum 95.4322; realized 10.
    h.trade(1, d40('2500000'), d40('1234.5678'), d40('10'));
    expect([h.book.unrealized, h.book.total]).toEqual([95.4322, 105.4322]);
    // 12345.6789 × 0.75 − 9876.54321 = 9259.259175 − 9876.54321 = −617.284035; sum −521.851835.
    h.trade(2, d40('12345.6789'), d40('9876.54321'));
    expect([h.book.unrealized, h.book.total]).toEqual([-521.851835, -511.851835]);
    // Price moves, a partial sell with a 40-digit usd_invested (qty × a 40-digit average price).
    h.move(0, '0.31');
    h.move(1, '0.000499');
    h.trade(2, d40('10000'), d40('10000').times(d40('9876.54321').div(d40('12345.6789'))), d40('20.5'), d40('-5'));
    h.move(2, 0.7512);
    h.move(0, '0.29');
    h.trade(0, d40('1500'), d40('395.125'), d40('-0.25'));
    h.close(1, d40('14.75'));
    h.move(2, '0.8');
    h.trade(2, d40('10000'), h.deals.get(2)!.invested);
    expect(h.doubleWordPath).toBe(7);
    expect(h.book.exactReadings).toBe(0);
    expect(h.realized.exactReadings).toBe(0);
  });

  it('a sum cancelled to almost nothing is read exactly, and the double word restarts from it', () => {
    const h = new Harness();
    h.move(0, '0.7');
    h.move(1, '0.3');
    // Deal 0: 3,000,000 × 0.7 − 1,100,000 = +1,000,000.
    h.trade(0, d40('3000000'), d40('1100000'), d40('12.5'));
    expect([h.book.unrealized, h.book.total, h.book.exactReadings]).toEqual([1000000, 1000012.5, 0]);
    // Deal 1: 1,000,000 × 0.3 − 1,299,999.999999999999999999999999999999 = −999,999.999999999999999999999999999999,
    // so the sum is 10^-30, far below the double word's error bound (about 10^6 × 2^-96 ≈ 1.3e-23).
    h.trade(1, d40('1000000'), d40('1299999.999999999999999999999999999999'));
    expect(h.book.unrealized).toBe(1e-30);
    // 12.5 + 10^-30 to 40 digits is 12.50…01 (31 decimals), whose nearest double is 12.5.
    expect(h.book.total).toBe(12.5);
    expect(h.book.exactReadings).toBe(1);
    // Deal 0 at 0.8: +1,300,000, sum 300,000 + 10^-30: decided from the restarted double word.
    h.move(0, '0.8');
    h.read();
    expect(h.book.unrealized).toBe(300000);
    expect(h.book.exactReadings).toBe(1);
    // Back to 0.7: 10^-30 again, read exactly again; realized 12.5 − 12.5 − 10^-30 = −10^-30, total 0.
    h.move(0, '0.7');
    h.read(d40('-12.5'), d40('-1e-30'));
    expect([h.book.unrealized, h.book.total]).toEqual([1e-30, 0]);
    expect(h.book.exactReadings).toBe(2);
    // A sum of exactly zero: deal 1's usd_invested becomes 1,300,000, its term −1,000,000, the
    // opposite of deal 0's. Realized −10^-30 + 5 + 10^-30 = 5.
    h.trade(1, d40('1000000'), d40('1300000'), d40('5'), d40('1e-30'));
    expect([h.book.unrealized, h.book.total]).toEqual([0, 5]);
    expect(h.book.exactReadings).toBe(3);
  });

  it('more deals than the first slot table holds (64): opened, re-valued and closed in a shuffled order', () => {
    const h = new Harness();
    const n = 150;
    for (let i = 0; i < n; i++) {
      // Prices as strings, numbers and decimals in turn; 40-digit usd_invested every third deal.
      const priceText = `${(i % 17) + 1}.${String((i * 7919) % 100000).padStart(5, '0')}e-${i % 9}`;
      h.move(i, i % 3 === 0 ? priceText : i % 3 === 1 ? Number(priceText) : d40(priceText));
      const qty = d40(`${(i * 104729) % 1000003}.${i % 97}`);
      const invested = i % 3 === 2 ? qty.times(d40('1').div(d40(String(i + 3)))) : d40(`${(i * 31) % 9973}.${i}`);
      h.trade(i, qty, invested, d40(`${i}.25`));
    }
    // Re-value every other deal, then close them in a scrambled order (the last slot moves into each hole).
    for (let i = 0; i < n; i += 2) h.move(i, `${(i % 13) + 2}.125`);
    h.read();
    for (let k = 0; k < n; k++) {
      const i = (k * 61) % n; // 61 is prime to 150: every deal once
      if (k % 10 === 0) h.move((i + 1) % n, String((k % 7) + 0.5));
      h.close(i, d40('-1.5'));
    }
    expect(h.deals.size).toBe(0);
    expect(h.book.unrealized).toBe(0);
    expect(h.doubleWordPath + h.exactPath).toBe(n + n); // every reading with a deal open was checked
  });
});

describe('UnrealizedBook: a 40-digit term just past a rounding midpoint', () => {
  // X = 103402.9962715016372385434806451303654536 (40 digits) lies between the doubles
  // A = 103402.99627150163 and B = A + 2^-36 (doubles in [2^16, 2^17) are 2^-36 apart), above
  // their midpoint A + 2^-37 by about 1.0e-23, i.e. 2^-93 of X: B is its nearest double. Found by
  // a search over midpoints m of random doubles, X = m × (1 + 2^-93) rounded to 40 digits, for a
  // value that toWord puts on the wrong side of the midpoint.
  const X = '103402.9962715016372385434806451303654536';
  const A = 103402.99627150163;
  const B = A + 2 ** -36;

  it('the reference: B is the nearest double to X, and X is above the midpoint by more than 2^-95 of itself', () => {
    const x = new Wide(X);
    const midpoint = exactOf(A).plus(exactOf(2 ** -37));
    expect(
      exactOf(B)
        .minus(exactOf(A))
        .eq(exactOf(2 ** -36)),
    ).toBe(true);
    expect(x.gt(midpoint)).toBe(true);
    expect(x.minus(midpoint).gt(x.times(new Wide(2).pow(-95)))).toBe(true);
    expect(roundsTo(x, B)).toBe(true);
    expect(toJsonNumber(d40(X))).toBe(B);
  });

  it('a position of X tokens at price 1 prints B', () => {
    // Term X × 1 − 0 = X exactly.
    const h = new Harness();
    h.move(0, 1);
    h.book.traded(asDeal(newDeal(0, d40(X), ZERO40)));
    h.realized.read();
    h.book.read(h.realized);
    expect({ unrealized: h.book.unrealized, total: h.book.total }).toEqual({ unrealized: B, total: B });
  });

  it('a realized PnL of X plus a tiny unrealized sum prints B as the total', () => {
    // Sum 10^-30 (10^-30 tokens at 1); X + 10^-30 still has 40 digits and is above the midpoint by about 1.0e-23.
    const h = new Harness();
    h.move(0, '1');
    h.book.traded(asDeal(newDeal(0, d40('1e-30'), ZERO40)));
    h.realized.addTrade(d40(X), ZERO40, ZERO40);
    h.realized.read();
    h.book.read(h.realized);
    expect(h.book.unrealized).toBe(1e-30);
    expect(toJsonNumber(d40(X).plus(d40('1e-30')))).toBe(B);
    expect(h.book.total).toBe(B);
  });
});

describe('UnrealizedBook: a whale deal valued near its cost, and a small deal near a midpoint', () => {
  it('prints the nearest double of the exact sum', () => {
    // Deal 0: $30,528 bought at 0.00235323, i.e. 30528 / 0.00235323 = 12972807.58786858913068420851340497953876
    // tokens (40 digits), usd_invested 30528, now at 0.00236810: term 12972807.58786858913068420851340497953876
    // × 0.00236810 − 30528 = 192.6456488316059…. Deal 1: 1 token at 1, usd_invested
    // 0.6299999999999999097575391132132385446711 (chosen, by a search, to put the sum about
    // 2^-75 ≈ 2.6e-23 from a midpoint of two doubles): term 0.3700000000000000902….
    // Sum: 193.2756488316059204635166414811188071928849 (43 digits, computed at 4,000 digits
    // below), whose 40-digit rounding prints as 193.2756488316059.
    const qty = d40('30528').div(d40('0.00235323'));
    expect(qty.toString()).toBe('12972807.58786858913068420851340497953876');
    const investedB = d40('0.6299999999999999097575391132132385446711');
    const exact = new Wide(qty.toString()).times('0.00236810').minus(30528).plus(1).minus(investedB.toString());
    expect(exact.toString()).toBe('193.2756488316059204635166414811188071928849');
    const s40 = round40(exact);
    expect(toJsonNumber(s40)).toBe(193.2756488316059);
    expect(roundsTo(new Wide(s40.toString()), 193.2756488316059)).toBe(true);

    const prices = new RealPrices();
    prices.set(0, '0.00236810');
    prices.set(1, '1');
    const book = new UnrealizedBook(prices.book);
    book.traded(asDeal(newDeal(0, qty, d40('30528'))));
    book.traded(asDeal(newDeal(1, d40('1'), investedB)));
    const realized = new ChartSums(null);
    realized.read();
    book.read(realized);
    expect(book.unrealized).toBe(193.2756488316059);
    expect(book.total).toBe(193.2756488316059);
  });
});

describe("UnrealizedBook: the model's 40-digit arithmetic", () => {
  it('rounds a product to 40 digits before it takes usd_invested away', () => {
    // (10^39 + 5) × 1.3 = 1300000000000000000000000000000000000006.5 exactly (41 digits), …0006 at
    // 40 (half to even); less 1300000000000000000000000100000000000006: −100000000000000. The
    // exact difference, −99999999999999.5, is what the sum would print without the rounding.
    const h = new Harness();
    h.move(0, '1.3');
    h.trade(0, d40('1000000000000000000000000000000000000005'), d40('1300000000000000000000000100000000000006'));
    expect(h.book.unrealized).toBe(-100000000000000);
    expect(h.book.total).toBe(-100000000000000);
  });

  it('a buy of 84.5 USD at 1.7 without slippage is worth exactly its cost', () => {
    // qty = 84.5 / 1.7 = 49.70588235294117647058823529411764705882; usd_invested (qty × 84.5 / qty)
    // = 84.49999999999999999999999999999999999999; qty × 1.7 = 84.499999999999999999999999999999999999994
    // exactly, the same 84.4999…9 at 40 digits: the term is 0 (the exact difference is 4e-39).
    const qty = d40('84.5').div(d40('1.7'));
    expect(qty.toString()).toBe('49.70588235294117647058823529411764705882');
    const invested = qty.times(d40('84.5').div(qty));
    expect(invested.toString()).toBe('84.49999999999999999999999999999999999999');
    const h = new Harness();
    h.move(0, '1.7');
    h.trade(0, qty, invested);
    expect(h.book.unrealized).toBe(0);
    expect(h.book.exactReadings).toBe(1);
  });

  it('adds the open deals in deal order, each addition rounded', () => {
    // Deals in the order they open: 0 and 1 (tokens 3 and 4, 1 token at 1 each), 2 (token 0: 1
    // token at 0.4, nothing invested: 0.4), 3 (token 1: 10^39 tokens at 1: 10^39), 4 (token 2:
    // 10^39 tokens at 1, 2 × 10^39 invested: −10^39). Closing deals 1 and 0 moves deals 4 and 3
    // into their slots, so the book holds them as 3, 4, 2. In deal order: 0.4 + 10^39 rounds to
    // 10^39 at 40 digits, less 10^39: 0. In the slots' order it would be 0 + 0.4 = 0.4.
    const h = new Harness();
    for (const [token, price] of [
      [3, '1'],
      [4, '1'],
      [0, '0.4'],
      [1, '1'],
      [2, '1'],
    ] as const)
      h.move(token, price);
    h.trade(3, d40('1'), ZERO40);
    h.trade(4, d40('1'), ZERO40);
    h.trade(0, d40('1'), ZERO40);
    h.trade(1, d40('1e39'), ZERO40);
    h.trade(2, d40('1e39'), d40('2e39'));
    h.close(4);
    h.close(3);
    expect(h.book.unrealized).toBe(0);
  });
});

describe('UnrealizedBook: properties against the model', () => {
  const positive = fc.constant('');
  /** Prices: decimals, short and long strings, doubles and doubles from short decimals. */
  const priceArb: fc.Arbitrary<Price> = fc.oneof(
    decimal40Arb(-20, 2, positive),
    shortStringArb(-12, 5, fc.constant(false)),
    fc.tuple(digitsArb, fc.integer({ min: -45, max: 0 })).map(([digits, e]) => `${digits}e${e}`),
    fc.double({ min: 1e-12, max: 1e6, noNaN: true }),
    shortStringArb(-12, 5, fc.constant(false)).map(Number),
  );
  const tokenArb = fc.integer({ min: 0, max: 3 });
  /** A trade's realized terms: none (a buy without fees), or a gain and fees. */
  const realizedArb = fc.array(decimal40Arb(-30, 6), { maxLength: 3 });
  const offsetArb = fc.oneof(fc.constant(ZERO40), decimal40Arb(-50, -25));

  /**
   * usd_invested: given; or making the deal's term nearly cancel (qty × price to 40 digits, plus a
   * tiny offset); or making the whole sum nearly cancel (the other deals' terms included).
   */
  type Invested = { kind: 'given'; value: Decimal40 } | { kind: 'cancelTerm' | 'cancelSum'; offset: Decimal40 };
  const investedArb: fc.Arbitrary<Invested> = fc.oneof(
    { weight: 4, arbitrary: decimal40Arb(-12, 8, positive).map((value) => ({ kind: 'given' as const, value })) },
    { weight: 1, arbitrary: offsetArb.map((offset) => ({ kind: 'cancelTerm' as const, offset })) },
    { weight: 1, arbitrary: offsetArb.map((offset) => ({ kind: 'cancelSum' as const, offset })) },
  );
  type Op =
    | { kind: 'move'; token: number; price: Price }
    | { kind: 'trade'; token: number; price: Price | null; qty: Decimal40; invested: Invested; realized: Decimal40[] }
    | { kind: 'close'; token: number; realized: Decimal40[] }
    | { kind: 'read'; realized: Decimal40[] };
  const opArb: fc.Arbitrary<Op> = fc.oneof(
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('move' as const), token: tokenArb, price: priceArb }) },
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('trade' as const),
        token: tokenArb,
        price: fc.option(priceArb, { nil: null }),
        qty: decimal40Arb(-12, 8, positive),
        invested: investedArb,
        realized: realizedArb,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('close' as const), token: tokenArb, realized: realizedArb }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('read' as const), realized: realizedArb }) },
  );

  function run(h: Harness, initial: readonly Price[], ops: readonly Op[]): void {
    initial.forEach((price, token) => h.move(token, price));
    for (const op of ops) {
      switch (op.kind) {
        case 'move':
          h.move(op.token, op.price);
          break;
        case 'trade': {
          // The trade's own swap moves the price first (the replay observes it, then trades).
          if (op.price !== null) h.move(op.token, op.price);
          let invested: Decimal40;
          if (op.invested.kind === 'given') {
            invested = op.invested.value;
          } else {
            const others = op.invested.kind === 'cancelSum' ? h.exactSum(op.token) : new Wide(0);
            const product = decimalValue(op.qty).times(decimalValue(h.prices.book.priceOf(op.token)));
            invested = round40(product.plus(others)).plus(op.invested.offset);
          }
          h.trade(op.token, op.qty, invested, ...op.realized);
          break;
        }
        case 'close':
          h.close(op.token, ...op.realized);
          break;
        case 'read':
          h.read(...op.realized);
          break;
      }
    }
  }

  const scenarioArb = fc.tuple(
    fc.array(priceArb, { minLength: 4, maxLength: 4 }),
    fc.array(opArb, { minLength: 1, maxLength: 40, size: 'max' }),
  );

  for (const [name, makePrices] of [
    ['a price book of raw values and decimals', (): PriceSource => new FakePrices()],
    ["the engine's KnownPrices", (): PriceSource => new RealPrices()],
  ] as const) {
    it(`every reading prints the model's answers, on both paths (${name})`, () => {
      let exactPath = 0;
      let doubleWordPath = 0;
      fc.assert(
        fc.property(scenarioArb, ([initial, ops]) => {
          const h = new Harness(makePrices());
          try {
            run(h, initial, ops);
          } finally {
            exactPath += h.exactPath;
            doubleWordPath += h.doubleWordPath;
          }
        }),
        { ...PARAMS, numRuns: PROPERTY_RUNS },
      );
      // Both paths are exercised: the cancelling trades force exact readings, the rest decide.
      expect(exactPath).toBeGreaterThan(PROPERTY_RUNS / 2);
      expect(doubleWordPath).toBeGreaterThan(PROPERTY_RUNS * 5);
    });
  }
});
