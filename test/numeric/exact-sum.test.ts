/**
 * ExactSum (src/numeric/exact-sum.ts): sums of decimals and of products of decimals, exact until
 * read, then rounded once, half to even, to 40 digits. Checked against decimal.js with enough
 * digits to hold every sum exactly, then rounded by the project's 40-digit clone.
 */
import { Decimal as DecimalJs } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal40 } from '../../src/numeric/decimal40.js';
import { ExactSum } from '../../src/numeric/exact-sum.js';
import {
  Clone,
  nearValueArb,
  PROPERTY_RUNS,
  PROPERTY_SEED,
  stringArb,
  valueArb,
  type Input,
} from './decimal40-cases.js';

/**
 * Exact for everything generated here: the widest sum, of products of two doubles (down to
 * 10^-648) and of values up to 10^616, spans under 1,300 digits.
 */
const Wide = DecimalJs.clone({ precision: 4000, rounding: DecimalJs.ROUND_HALF_EVEN, toExpNeg: -9e15, toExpPos: 9e15 });

const PARAMS = { seed: PROPERTY_SEED, numRuns: PROPERTY_RUNS * 5, includeErrorInReport: true };

/** One addition to a sum: `sign × a`, or `sign × a × b`. */
interface Term {
  readonly a: Input;
  readonly b: Input | null;
  readonly sign: 1 | -1;
}

const signArb = fc.constantFrom<1 | -1>(1, -1);
const termArb = (value: fc.Arbitrary<Input>): fc.Arbitrary<Term> =>
  fc.record({ a: value, b: fc.option(value, { nil: null, freq: 2 }), sign: signArb });

/** The terms' exact sum, rounded half to even to 40 digits. */
function expected(terms: readonly Term[]): string {
  let sum = new Wide(0);
  for (const { a, b, sign } of terms) {
    const x = new Wide(new Decimal40(a).toString());
    const term = b === null ? x : x.times(new Decimal40(b).toString());
    sum = sign > 0 ? sum.plus(term) : sum.minus(term);
  }
  return rounded(sum);
}

/** A decimal.js value rounded half to even to 40 digits (the clone keeps every digit it is given). */
function rounded(exact: InstanceType<typeof Wide>): string {
  return new Clone(exact.toString()).toSignificantDigits(40).toString();
}

function addAll(sum: ExactSum, terms: readonly Term[]): void {
  for (const { a, b, sign } of terms) {
    if (b === null) sum.add(new Decimal40(a), sign);
    else sum.addProduct(new Decimal40(a), new Decimal40(b), sign);
  }
}

function sumOf(terms: readonly Term[]): string {
  const sum = new ExactSum();
  addAll(sum, terms);
  return sum.value().toString();
}

const d = (x: Input): Decimal40 => new Decimal40(x);

describe('ExactSum: hand-computed sums', () => {
  it('adds products and decimals exactly: 3 × 0.1 − 0.05 = 0.25', () => {
    const sum = new ExactSum();
    sum.addProduct(d('3'), d('0.1'));
    sum.add(d('0.05'), -1);
    expect(sum.value().toString()).toBe('0.25');
  });

  it('is zero when empty, and zero again once every term is taken away', () => {
    const sum = new ExactSum();
    expect(sum.value().isZero()).toBe(true);
    sum.addProduct(d('123.456'), d('0.000789'));
    sum.add(d('-1e-30'));
    sum.addProduct(d('123.456'), d('0.000789'), -1);
    expect(sum.value().toString()).toBe('-0.000000000000000000000000000001');
    sum.add(d('1e-30'));
    expect(sum.value().isZero()).toBe(true);
  });

  it('keeps a product to all 80 of its digits until the reading rounds it once', () => {
    // (10^20 + 1)² = 10^40 + 2·10^20 + 1: 41 digits; rounded, the 1 is lost (below half).
    const a = d('100000000000000000001');
    const sum = new ExactSum();
    sum.addProduct(a, a);
    expect(sum.value().toString()).toBe('10000000000000000000200000000000000000000');
    // Take 10^40 away: the 21 digits left are exact.
    sum.add(d('1e40'), -1);
    expect(sum.value().toString()).toBe('200000000000000000001');
  });

  it('rounds half to even, once, at the 40th digit', () => {
    // 10^39 + 0.5: half-way between 10^39 and 10^39 + 1, so the even one, 10^39.
    const even = new ExactSum();
    even.add(d('1e39'));
    even.add(d('0.5'));
    expect(even.value().toString()).toBe('1'.padEnd(40, '0'));
    // 10^39 + 1.5: half-way, the even neighbour is 10^39 + 2.
    const odd = new ExactSum();
    odd.add(d('1e39'));
    odd.add(d('1.5'));
    expect(odd.value().toString()).toBe(`1${'0'.repeat(38)}2`);
    // A step-by-step 40-digit sum would round 10^39 + 0.5 to 10^39 and lose the next 0.5 too;
    // the exact sum keeps both: 10^39 + 1.
    const both = new ExactSum();
    both.add(d('1e39'));
    both.add(d('0.5'));
    both.add(d('0.5'));
    expect(both.value().toString()).toBe(`1${'0'.repeat(38)}1`);
  });

  it('reads negative sums, borrowing through every column', () => {
    const sum = new ExactSum();
    sum.add(d('1'));
    sum.add(d('1e-45'), -1); // 0.999…9 (45 nines): 40 digits, rounded up to 1
    expect(sum.value().toString()).toBe('1');
    sum.add(d('2'), -1); // −1 − 10^-45: rounds to −1
    expect(sum.value().toString()).toBe('-1');
    sum.addProduct(d('-3'), d('7')); // −22 − 10^-45
    expect(sum.value().toString()).toBe('-22');
    sum.add(d('22')); // −10^-45
    expect(sum.value().toString()).toBe('-0.000000000000000000000000000000000000000000001');
  });

  it('holds terms a hundred and twenty orders of magnitude apart', () => {
    const sum = new ExactSum();
    sum.addProduct(d('1e-60'), d('3e-60'));
    sum.addProduct(d('2e60'), d('5e60'));
    sum.add(d('1e121'), -1);
    expect(sum.value().toString()).toBe(`0.${'0'.repeat(119)}3`);
  });

  it('carries a column before it could pass 2^53, however many terms come between readings', () => {
    // 9,999,999 × 9,999,999 in every column of every product, 500 times: far past the limit
    // of one column without carries.
    const nines = d('9'.repeat(40));
    const sum = new ExactSum();
    for (let k = 0; k < 500; k++) sum.addProduct(nines, nines);
    expect(sum.value().toString()).toBe(rounded(new Wide('9'.repeat(40)).pow(2).times(500)));
  });
});

describe('ExactSum: against exact decimal.js sums', () => {
  it('gives the exact sum of any terms, rounded once (any values, doubles included)', () => {
    fc.assert(
      fc.property(fc.array(termArb(valueArb), { minLength: 1, maxLength: 12 }), (terms) => {
        expect(sumOf(terms)).toBe(expected(terms));
      }),
      PARAMS,
    );
  });

  it('gives the exact sum of terms of like size, where carries and cancellations meet', () => {
    fc.assert(
      fc.property(fc.array(termArb(nearValueArb), { minLength: 1, maxLength: 30 }), (terms) => {
        expect(sumOf(terms)).toBe(expected(terms));
      }),
      PARAMS,
    );
  });

  it('reads the same sum at any point, and the exact sum after more terms (readings change nothing)', () => {
    fc.assert(
      fc.property(fc.array(termArb(stringArb()), { minLength: 2, maxLength: 20 }), fc.nat(), (terms, cut) => {
        const at = 1 + (cut % (terms.length - 1));
        const sum = new ExactSum();
        addAll(sum, terms.slice(0, at));
        expect(sum.value().toString()).toBe(expected(terms.slice(0, at)));
        addAll(sum, terms.slice(at));
        expect(sum.value().toString()).toBe(expected(terms));
      }),
      PARAMS,
    );
  });

  it('is exactly zero once every term is taken away again, in any order', () => {
    fc.assert(
      fc.property(fc.array(termArb(valueArb), { minLength: 1, maxLength: 12 }), fc.nat(), (terms, rotate) => {
        const sum = new ExactSum();
        addAll(sum, terms);
        const k = rotate % terms.length;
        const undo = [...terms.slice(k), ...terms.slice(0, k)].map((t) => ({ ...t, sign: -t.sign as 1 | -1 }));
        addAll(sum, undo);
        expect(sum.value().isZero()).toBe(true);
      }),
      PARAMS,
    );
  });

  it('clear() starts again from zero', () => {
    fc.assert(
      fc.property(
        fc.array(termArb(valueArb), { maxLength: 8 }),
        fc.array(termArb(valueArb), { maxLength: 8 }),
        (before, after) => {
          const sum = new ExactSum();
          addAll(sum, before);
          sum.clear();
          addAll(sum, after);
          expect(sum.value().toString()).toBe(expected(after));
        },
      ),
      PARAMS,
    );
  });
});

describe('ExactSum: addSum, a sum of sums', () => {
  it('hand-computed: (3 × 0.1 + 10^-45) − (0.05 + 10^30) + 10^30 = 0.25 + 10^-45, rounded once', () => {
    const a = new ExactSum();
    a.addProduct(d('3'), d('0.1'));
    a.add(d('1e-45'));
    const b = new ExactSum();
    b.add(d('0.05'));
    b.add(d('1e30'));
    const total = new ExactSum();
    total.addSum(a);
    total.addSum(b, -1);
    total.add(d('1e30'));
    // 0.25 + 10^-45 has 45 digits: rounded to 40, 0.25.
    expect(total.value().toString()).toBe('0.25');
    // The parts are still what they were (0.3 + 10^-45 reads as 0.3: 46 digits, rounded to 40).
    expect(a.value().toString()).toBe('0.3');
    expect(b.value().toString()).toBe('1000000000000000000000000000000.05');
    // Exact until read: the 10^-45 that a sum of the parts' readings would lose is kept.
    const c = new ExactSum();
    c.addSum(b);
    c.add(d('1e30'), -1);
    c.addSum(a);
    c.add(d('0.35'), -1);
    expect(c.value().eq(d('1e-45'))).toBe(true);
  });

  it('an empty sum adds nothing; a sum added to itself and taken away again leaves zero', () => {
    const empty = new ExactSum();
    const total = new ExactSum();
    total.add(d('7.5'));
    total.addSum(empty, -1);
    expect(total.value().toString()).toBe('7.5');
    const other = new ExactSum();
    other.addProduct(d('123.456'), d('0.000789'));
    total.addSum(other);
    total.addSum(other, -1);
    expect(total.value().toString()).toBe('7.5');
  });

  it('adds any sums with any signs: the exact sum of all their terms, rounded once', () => {
    const partsArb = fc.array(fc.tuple(fc.array(termArb(valueArb), { maxLength: 8 }), signArb), {
      minLength: 1,
      maxLength: 4,
    });
    fc.assert(
      fc.property(partsArb, fc.array(termArb(nearValueArb), { maxLength: 4 }), (parts, own) => {
        const total = new ExactSum();
        addAll(total, own);
        const all: Term[] = [...own];
        for (const [terms, sign] of parts) {
          const part = new ExactSum();
          addAll(part, terms);
          total.addSum(part, sign);
          all.push(...terms.map((t) => ({ ...t, sign: (t.sign * sign) as 1 | -1 })));
        }
        expect(total.value().toString()).toBe(expected(all));
      }),
      PARAMS,
    );
  });

  it('takes more sums between readings than a column could hold without carrying', () => {
    // A part of 40 nines in every column, added 200 times: each addition counts against the limit.
    const part = new ExactSum();
    part.add(d('9'.repeat(40)));
    part.add(d(`0.${'9'.repeat(39)}`));
    const total = new ExactSum();
    for (let k = 0; k < 200; k++) total.addSum(part);
    expect(total.value().toString()).toBe(rounded(new Wide('9'.repeat(40)).plus(`0.${'9'.repeat(39)}`).times(200)));
  });
});

describe('ExactSum: addSumTimes, a sum times a decimal', () => {
  it('hand-computed: (12.5 + 40 − 10^-45) × 0.0075 = 0.39375 − 7.5 × 10^-48, rounded once', () => {
    const amounts = new ExactSum();
    amounts.add(d('12.5'));
    amounts.add(d('40'));
    amounts.add(d('1e-45'), -1);
    const total = new ExactSum();
    total.addSumTimes(amounts, d('0.0075'));
    // 0.39374999…9925 has 48 digits: rounded to 40, 0.39375.
    expect(total.value().toString()).toBe('0.39375');
    // Exact until read: taking 0.39375 away leaves the −7.5 × 10^-48 a rounded product would lose.
    total.add(d('0.39375'), -1);
    expect(total.value().eq(d('-7.5e-48'))).toBe(true);
    // A negative sum and a negative sign: −(−3 × 0.1) = 0.3 more.
    const negative = new ExactSum();
    negative.add(d('3'), -1);
    total.addSumTimes(negative, d('0.1'), -1);
    expect(total.value().toString()).toBe(rounded(new Wide('0.3').minus('7.5e-48')));
  });

  it('an empty sum adds nothing', () => {
    const total = new ExactSum();
    total.add(d('2'));
    total.addSumTimes(new ExactSum(), d('0.01'));
    expect(total.value().toString()).toBe('2');
  });

  it('adds any sum times any decimal, with any sign: the exact products, rounded once', () => {
    fc.assert(
      fc.property(
        fc.array(termArb(valueArb), { maxLength: 8 }),
        valueArb,
        signArb,
        fc.array(termArb(nearValueArb), { maxLength: 4 }),
        (terms, factor, sign, own) => {
          const part = new ExactSum();
          addAll(part, terms);
          const total = new ExactSum();
          addAll(total, own);
          total.addSumTimes(part, d(factor), sign);
          const ownExact = own.reduce((sum, t) => sum.plus(termValue(t)), new Wide(0));
          const partExact = terms.reduce((sum, t) => sum.plus(termValue(t)), new Wide(0));
          const want = ownExact.plus(partExact.times(new Decimal40(factor).toString()).times(sign));
          expect(total.value().toString()).toBe(rounded(want));
        },
      ),
      PARAMS,
    );
  });
});

/** A term's exact value, sign included. */
function termValue({ a, b, sign }: Term): InstanceType<typeof Wide> {
  const x = new Wide(new Decimal40(a).toString());
  return (b === null ? x : x.times(new Decimal40(b).toString())).times(sign);
}
