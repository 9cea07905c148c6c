/**
 * Differential tests of Decimal40 (src/numeric/decimal40.ts) against the project's decimal.js
 * clone (src/numeric/decimal.ts: 40 significant digits, half to even). Decimal40 must give the
 * same text and the same double as the clone, operation by operation, with two documented
 * differences that are tested as such and never compared with decimal.js:
 * - an input with more than 40 significant digits is rounded half to even on construction;
 * - there is no negative zero: every zero is +0.
 *
 * Generators: decimal40-cases.ts. Runs and seed: COPYSIM_PROPERTY_RUNS (×10 here) and
 * COPYSIM_PROPERTY_SEED, as for the other properties.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal40 } from '../../src/numeric/decimal40.js';
import {
  chainArb,
  Clone,
  countWhere,
  exactResult,
  isFixedTie,
  isTie,
  longStringArb,
  OPS,
  pairArb,
  PROPERTY_RUNS,
  PROPERTY_SEED,
  sample,
  shape,
  valueArb,
  type Input,
  type Op,
  type Pair,
} from './decimal40-cases.js';

/** Every operation is cheap: ten times the runs of the simulation properties (2,000 by default). */
const RUNS = PROPERTY_RUNS * 10;
// includeErrorInReport: the report names the failing computation and both results, not only the inputs.
const PARAMS = { seed: PROPERTY_SEED, numRuns: RUNS, includeErrorInReport: true };

const DECIMAL_PLACES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/** An input as it would be written in a test: `-0` keeps its sign, strings keep their quotes. */
function show(value: Input): string {
  if (typeof value === 'string') return JSON.stringify(value);
  return Object.is(value, -0) ? '-0' : String(value);
}

/** Equal doubles, except that -0 and 0 count as equal (Decimal40 has no negative zero). */
function sameNumber(a: number, b: number): boolean {
  return Object.is(a, b) || (a === 0 && b === 0);
}

/** Decimal40's zeros are +0: `toNumber()` gives +0 and `isNegative()` is false. */
function assertPositiveZero(what: string, actual: Decimal40): void {
  if (actual.isZero() && (!Object.is(actual.toNumber(), 0) || actual.isNegative())) {
    throw new Error(
      `${what}: a zero must be +0, got toNumber() ${show(actual.toNumber())}, isNegative() ${actual.isNegative()}`,
    );
  }
}

/** Throws, naming the computation, unless Decimal40's result prints and converts like the clone's. */
function assertSame(what: string, actual: Decimal40, expected: InstanceType<typeof Clone>): void {
  const text = actual.toString();
  const want = expected.toString();
  if (text !== want) throw new Error(`${what}: toString() is ${text}, the clone's ${want}`);
  const n = actual.toNumber();
  const m = expected.toNumber();
  if (!sameNumber(n, m)) throw new Error(`${what}: toNumber() is ${show(n)}, the clone's ${show(m)}`);
  assertPositiveZero(what, actual);
}

function assertEqual<T>(what: string, actual: T, expected: T): void {
  if (!Object.is(actual, expected))
    throw new Error(`${what}: got ${String(actual)}, the clone gives ${String(expected)}`);
}

/** One operation on Decimal40 operands, on a raw operand, and on the clone. */
function checkOperation(op: Op, a: Input, b: Input): void {
  const what = `new Decimal40(${show(a)}).${op}(new Decimal40(${show(b)}))`;
  const x = new Decimal40(a);
  const y = new Decimal40(b);
  const before = [x.toString(), y.toString()];
  const cy = new Clone(b);
  if (op === 'div' && cy.isZero()) {
    expect(() => x.div(y), what).toThrow(RangeError);
    return;
  }
  const expected = new Clone(a)[op](cy);
  assertSame(what, x[op](y), expected);
  // The operand may also come as it is written (a number or a string).
  assertSame(`new Decimal40(${show(a)}).${op}(${show(b)})`, x[op](b), expected);
  // Values are immutable: an operation must not change its operands.
  assertEqual(`${what}: the operands afterwards`, [x.toString(), y.toString()].join(' '), before.join(' '));
}

describe('Decimal40: the four operations match the clone', () => {
  for (const op of OPS) {
    it(`${op} on generated pairs`, () => {
      fc.assert(
        fc.property(pairArb, ([a, b]) => checkOperation(op, a, b)),
        PARAMS,
      );
    });
  }

  // The pairs must reach the cases the properties are about, or they would pass vacuously.
  describe('the generated pairs reach', () => {
    const pairs = sample(pairArb);
    const shapes = pairs.map(([a, b]) => [shape(a), shape(b)] as const);
    const nonZero = shapes.filter(([a, b]) => !a.zero && !b.zero);
    const gap = ([a, b]: (typeof nonZero)[number]) => Math.abs(a.exponent - b.exponent);
    const stringShapes = pairs
      .flat()
      .filter((v) => typeof v === 'string')
      .map(shape)
      .filter((s) => !s.zero);

    it('the digits and exponents the generator claims, and never more than 40 digits', () => {
      const all = shapes.flat();
      expect(Math.max(...all.map((s) => s.digits.length))).toBe(40);
      expect(Math.min(...all.filter((s) => !s.zero).map((s) => s.digits.length))).toBe(1);
      expect(Math.min(...stringShapes.map((s) => s.exponent))).toBeLessThanOrEqual(-70);
      expect(Math.max(...stringShapes.map((s) => s.exponent))).toBeGreaterThanOrEqual(70);
      const counts = countWhere(pairs.flat(), {
        '40 digits': (v) => shape(v).digits.length === 40,
        negative: (v) => shape(v).negative && !shape(v).zero,
        positive: (v) => !shape(v).negative,
        zero: (v) => shape(v).zero,
        '-0 (number or string)': (v) =>
          Object.is(v, -0) || (typeof v === 'string' && shape(v).zero && v.startsWith('-')),
        '99…9 (8+ nines)': (v) => /^9{8,}$/.test(shape(v).digits),
        '10…0 written with 8+ zeros': (v) => typeof v === 'string' && /1[0.]{8,}/.test(v) && shape(v).digits === '1',
        'ends in 5': (v) => shape(v).digits.length > 1 && shape(v).digits.endsWith('5'),
        'JSON number, not an integer': (v) => typeof v === 'number' && !Number.isInteger(v),
        'JSON number, integer': (v) => typeof v === 'number' && Number.isInteger(v),
        'JSON number beyond 1e100 or below 1e-100': (v) =>
          typeof v === 'number' && v !== 0 && (Math.abs(v) > 1e100 || Math.abs(v) < 1e-100),
        'scientific with E': (v) => typeof v === 'string' && v.includes('E'),
        'leading point': (v) => typeof v === 'string' && /^[+-]?\.\d/.test(v),
        'trailing point': (v) => typeof v === 'string' && /\d\.$/.test(v),
        'plus sign': (v) => typeof v === 'string' && v.startsWith('+'),
        // The two ways a string is read: the short path up to 15 significant digits (with 12 and
        // 13, where it cuts into two or three limbs), the long one beyond.
        'string of 1..5 digits (short path, one limb)': (v) =>
          typeof v === 'string' && !shape(v).zero && shape(v).digits.length <= 5,
        'string of 12 digits (short path, two limbs)': (v) => typeof v === 'string' && shape(v).digits.length === 12,
        'string of 13..15 digits (short path, three limbs)': (v) =>
          typeof v === 'string' && shape(v).digits.length >= 13 && shape(v).digits.length <= 15,
        'string of 16+ digits (long path)': (v) => typeof v === 'string' && shape(v).digits.length >= 16,
      });
      for (const [name, count] of Object.entries(counts)) expect(count, name).toBeGreaterThanOrEqual(5);
      // None longer than 40 digits: those are rounded on construction, a documented difference.
      expect(pairs.flat().filter((v) => shape(v).digits.length > 40)).toEqual([]);
    });

    it('exponent differences of 0, 1, 38..45, 80 and more than 40', () => {
      const counts = countWhere(nonZero, {
        'gap 0': (p) => gap(p) === 0,
        'gap 1': (p) => gap(p) === 1,
        'gap 38..40': (p) => gap(p) >= 38 && gap(p) <= 40,
        'gap 41..45': (p) => gap(p) >= 41 && gap(p) <= 45,
        'gap 80': (p) => gap(p) === 80,
        'gap > 40': (p) => gap(p) > 40,
      });
      for (const [name, count] of Object.entries(counts)) expect(count, name).toBeGreaterThanOrEqual(10);
    });

    it('half-way ties, cancellation and x - x in plus and minus', () => {
      const counts = countWhere(pairs, {
        'plus: a tie': ([a, b]) => isTie(exactResult('plus', a, b)),
        'minus: a tie': ([a, b]) => isTie(exactResult('minus', a, b)),
        // Ties where the kept digit is odd (rounds up) and even (stays).
        'plus: a tie that rounds up': ([a, b]) =>
          isTie(exactResult('plus', a, b)) && /[13579]5$/.test(shape(exactResult('plus', a, b)).digits),
        'plus: a tie that stays': ([a, b]) =>
          isTie(exactResult('plus', a, b)) && /[02468]5$/.test(shape(exactResult('plus', a, b)).digits),
        'plus: more than 40 digits, not a tie': ([a, b]) => shape(exactResult('plus', a, b)).digits.length > 41,
        'minus: 10+ leading digits cancel': ([a, b]) => cancels(exactResult('minus', a, b), a, b, 10),
        'plus: 10+ leading digits cancel': ([a, b]) => cancels(exactResult('plus', a, b), a, b, 10),
        'minus: x - x = 0, x not 0': ([a, b]) => !shape(a).zero && exactResult('minus', a, b).isZero(),
        'plus: the result carries into a new leading digit': ([a, b]) => carries(a, b),
      });
      for (const [name, count] of Object.entries(counts)) expect(count, name).toBeGreaterThanOrEqual(5);
    });

    it('ties and exact quotients in times and div, and zero divisors', () => {
      const quotientIsTie = ([a, b]: Pair) => {
        if (shape(b).zero) return false;
        const q = exactResult('div', a, b);
        return isTie(q) && q.times(b).eq(a); // 41 digits, and exact
      };
      const counts = countWhere(pairs, {
        'times: a tie': ([a, b]) => isTie(exactResult('times', a, b)),
        'times: more than 40 digits': ([a, b]) => shape(exactResult('times', a, b)).digits.length > 41,
        // The one-limb product: a factor of at most five significant digits, the other longer.
        'times: by at most five digits, over 40 digits': ([a, b]) => {
          const [x, y] = [shape(a).digits.length, shape(b).digits.length];
          return (
            !shape(a).zero &&
            !shape(b).zero &&
            Math.min(x, y) <= 5 &&
            Math.max(x, y) > 5 &&
            shape(exactResult('times', a, b)).digits.length > 40
          );
        },
        // The two-limb product: a factor of six to twelve significant digits, the other longer.
        'times: by six to twelve digits, over 40 digits': ([a, b]) => {
          const [x, y] = [significantDigits(a), significantDigits(b)];
          return (
            Math.min(x, y) >= 6 &&
            Math.min(x, y) <= 12 &&
            Math.max(x, y) > 12 &&
            shape(exactResult('times', a, b)).digits.length > 40
          );
        },
        'times: both factors of at most five digits': ([a, b]) =>
          !shape(a).zero && !shape(b).zero && shape(a).digits.length <= 5 && shape(b).digits.length <= 5,
        // The two 40-digit coefficients' product has 79 or 80 digits: its top limb two or three.
        'times: a product of 79 digits': ([a, b]) => productDigits(a, b) === 79,
        'times: a product of 80 digits': ([a, b]) => productDigits(a, b) === 80,
        'div: an exact tie': quotientIsTie,
        'div: an endless quotient': ([a, b]) => !shape(b).zero && shape(exactResult('div', a, b)).digits.length > 100,
        'div: by zero': ([, b]) => shape(b).zero,
        'div: 0 by non-zero': ([a, b]) => shape(a).zero && !shape(b).zero,
      });
      for (const [name, count] of Object.entries(counts)) expect(count, name).toBeGreaterThanOrEqual(5);
    });
  });
});

/** Significant digits of a value, trailing zeros left out (0 for a zero). */
function significantDigits(v: Input): number {
  const s = shape(v);
  return s.zero ? 0 : s.digits.replace(/0+$/, '').length;
}

/** Digits of the product of the operands' coefficients, each padded to 40 digits (0 for a zero). */
function productDigits(a: Input, b: Input): number {
  const [x, y] = [shape(a), shape(b)];
  if (x.zero || y.zero) return 0;
  return String(BigInt(x.digits.padEnd(40, '0')) * BigInt(y.digits.padEnd(40, '0'))).length;
}

/** True when `leading` or more leading digits of the larger operand cancel in `result`. */
function cancels(result: ReturnType<typeof exactResult>, a: Input, b: Input, leading: number): boolean {
  const sa = shape(a);
  const sb = shape(b);
  if (sa.zero || sb.zero || result.isZero()) return false;
  return shape(result).exponent <= Math.max(sa.exponent, sb.exponent) - leading;
}

/** True when a + b has its leading digit above both operands' (99…9 + 1 and the like). */
function carries(a: Input, b: Input): boolean {
  const sum = exactResult('plus', a, b);
  return !sum.isZero() && shape(sum).exponent > Math.max(shape(a).exponent, shape(b).exponent);
}

describe('Decimal40: division whose quotient is exact or one unit off', () => {
  // The long division estimates each quotient limb in float64 and corrects the remainder only
  // at the end. Exact quotients (the estimate of the last limb lands just below it) and their
  // neighbours (a ± 1 over b) are where a wrong correction would show.
  const digitsArb = (max: number) =>
    fc
      .tuple(fc.integer({ min: 1, max: 9 }), fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: max - 1 }))
      .map(([d, ds]) => BigInt(`${d}${ds.join('')}`));
  const caseArb = fc
    .tuple(
      digitsArb(20),
      digitsArb(20),
      fc.constantFrom(-1n, 0n, 1n),
      fc.integer({ min: -30, max: 30 }),
      fc.integer({ min: -30, max: 30 }),
    )
    .filter(([b, q, nudge]) => (b * q + nudge).toString().length <= 40 && b * q + nudge > 0n);

  it('(b × q + 0 or ±1) / b and / q, against the clone', () => {
    fc.assert(
      fc.property(caseArb, ([b, q, nudge, ea, eb]) => {
        const a = `${b * q + nudge}e${ea}`;
        checkOperation('div', a, `${b}e${eb}`);
        checkOperation('div', a, `${q}e${eb}`);
      }),
      PARAMS,
    );
  });

  it.each<[string, string, string]>([
    // Exact quotients of 40-digit integers.
    ['1219326311370217952238698369001386983689', '1234567890123456789', '987654321098765432101'],
    ['1219326311370217949657019380001519084789', '12345678901234567890123', '98765432109876543'],
    ['1219326311370217949657019380001519084789', '98765432109876543', '12345678901234567890123'],
    ['9999999999999999999999999999999999999999', '3', '3333333333333333333333333333333333333333'],
    [
      '9999999999999999999999999999999999999998',
      '9999999999999999999999999999999999999999',
      '0.9999999999999999999999999999999999999999',
    ],
  ])('%s / %s = %s', (a, b, expected) => {
    expect(new Decimal40(a).div(new Decimal40(b)).toString()).toBe(expected);
    expect(new Decimal40(a).div(new Decimal40(b)).toString()).toBe(new Clone(a).div(new Clone(b)).toString());
  });
});

describe('Decimal40: chains of operations match the clone after every step', () => {
  it('2 to 30 operations folded into an accumulator', () => {
    fc.assert(
      fc.property(chainArb, ([start, steps]) => {
        let x = new Decimal40(start);
        let c = new Clone(start);
        steps.forEach((step, i) => {
          const y = step.operand === null ? x : new Decimal40(step.operand);
          const cy = step.operand === null ? c : new Clone(step.operand);
          if (step.op === 'div' && cy.isZero()) return; // skipped: division by zero is tested on its own
          x = x[step.op](y);
          c = c[step.op](cy);
          const operand = step.operand === null ? 'itself' : show(step.operand);
          assertSame(`step ${i + 1} (${step.op} ${operand}) of the chain from ${show(start)}`, x, c);
        });
      }),
      PARAMS,
    );
  });

  it('the generated chains have 2 to 30 steps of every kind', () => {
    const chains = sample(chainArb);
    const lengths = chains.map(([, steps]) => steps.length);
    expect(Math.min(...lengths)).toBe(2);
    expect(Math.max(...lengths)).toBe(30);
    const steps = chains.flatMap(([, s]) => s);
    const counts = countWhere(steps, {
      plus: (s) => s.op === 'plus',
      minus: (s) => s.op === 'minus',
      times: (s) => s.op === 'times',
      div: (s) => s.op === 'div',
      'the accumulator itself': (s) => s.operand === null,
      'a zero operand': (s) => s.operand !== null && shape(s.operand).zero,
      'a JSON number': (s) => typeof s.operand === 'number',
    });
    for (const [name, count] of Object.entries(counts)) expect(count, name).toBeGreaterThanOrEqual(50);
  });
});

describe('Decimal40: comparisons, signs, neg, abs, max and min match the clone', () => {
  it('on generated pairs', () => {
    fc.assert(
      fc.property(pairArb, ([a, b]) => {
        const what = `${show(a)} and ${show(b)}`;
        const x = new Decimal40(a);
        const y = new Decimal40(b);
        const cx = new Clone(a);
        const cy = new Clone(b);
        // Object.is: equal negatives compare as 0, never -0.
        assertEqual(`cmp of ${what}`, x.cmp(y), cx.cmp(cy));
        assertEqual(`eq of ${what}`, x.eq(y), cx.eq(cy));
        assertEqual(`lt of ${what}`, x.lt(y), cx.lt(cy));
        assertEqual(`lte of ${what}`, x.lte(y), cx.lte(cy));
        assertEqual(`gt of ${what}`, x.gt(y), cx.gt(cy));
        assertEqual(`gte of ${what}`, x.gte(y), cx.gte(cy));
        assertSame(`Decimal40.max(${what})`, Decimal40.max(x, y), Clone.max(cx, cy));
        assertSame(`Decimal40.min(${what})`, Decimal40.min(x, y), Clone.min(cx, cy));
        for (const [input, d, c] of [
          [a, x, cx],
          [b, y, cy],
        ] as const) {
          assertEqual(`isZero of ${show(input)}`, d.isZero(), c.isZero());
          // Not the clone's isNegative/isPositive: they follow the sign of a zero (-0 is
          // negative, +0 positive); Decimal40's are strict: < 0 and > 0.
          assertEqual(`isNegative of ${show(input)}`, d.isNegative(), c.lt(0));
          assertEqual(`isPositive of ${show(input)}`, d.isPositive(), c.gt(0));
          assertSame(`neg of ${show(input)}`, d.neg(), c.neg());
          assertSame(`abs of ${show(input)}`, d.abs(), c.abs());
        }
      }),
      PARAMS,
    );
  });

  it('the generated pairs hold equal values, both orders, and zeros of both signs', () => {
    const pairs = sample(pairArb);
    const counts = countWhere(pairs, {
      'a < b': ([a, b]) => new Clone(a).lt(b),
      'a > b': ([a, b]) => new Clone(a).gt(b),
      'equal, spelled differently': ([a, b]) => new Clone(a).eq(b) && a !== b && !shape(a).zero,
      'equal in their first 10+ digits only': ([a, b]) =>
        !new Clone(a).eq(b) && cancels(exactResult('minus', a, b), a, b, 10),
      'opposite signs, same magnitude': ([a, b]) => !shape(a).zero && new Clone(a).eq(new Clone(b).neg()),
      'a zero': ([a, b]) => shape(a).zero || shape(b).zero,
      '-0': ([a, b]) => [a, b].some((v) => shape(v).zero && shape(v).negative),
    });
    for (const [name, count] of Object.entries(counts)) expect(count, name).toBeGreaterThanOrEqual(5);
  });
});

describe('Decimal40: conversions and rounding match the clone', () => {
  it('toNumber, toString, toFixed(0..12), toExponential(0..12) and roundHalfUp on generated values', () => {
    fc.assert(
      fc.property(valueArb, (v) => {
        const x = new Decimal40(v);
        const c = new Clone(v);
        assertSame(`new Decimal40(${show(v)})`, x, c);
        for (const dp of DECIMAL_PLACES) {
          assertEqual(`new Decimal40(${show(v)}).toFixed(${dp})`, x.toFixed(dp), c.toFixed(dp));
          assertEqual(`new Decimal40(${show(v)}).toExponential(${dp})`, x.toExponential(dp), c.toExponential(dp));
        }
        assertSame(
          `new Decimal40(${show(v)}).roundHalfUp()`,
          x.roundHalfUp(),
          c.toDecimalPlaces(0, Clone.ROUND_HALF_UP),
        );
      }),
      PARAMS,
    );
  });

  it('the generated values hit ties in toFixed, toExponential and roundHalfUp, and the edges of plain notation', () => {
    const values = sample(valueArb);
    const expTie = (v: Input) => !shape(v).zero && DECIMAL_PLACES.some((dp) => isTie(v, dp + 1));
    const counts = countWhere(values, {
      'a toFixed tie for some dp': (v) => DECIMAL_PLACES.some((dp) => isFixedTie(v, dp)),
      'a toFixed tie for some dp ≥ 1': (v) => DECIMAL_PLACES.slice(1).some((dp) => isFixedTie(v, dp)),
      'a toExponential tie for some dp': expTie,
      'a roundHalfUp tie (…​.5)': (v) => isFixedTie(v, 0),
      'negative, toFixed(12) rounds to 0': (v) =>
        new Clone(v).isNeg() && !shape(v).zero && new Clone(v).abs().lt('5e-13'),
      'at least 1e21': (v) => new Clone(v).abs().gte('1e21'),
      'below 1e-7, not 0': (v) => !shape(v).zero && new Clone(v).abs().lt('1e-7'),
    });
    for (const [name, count] of Object.entries(counts)) expect(count, name).toBeGreaterThanOrEqual(5);
  });
});

describe('Decimal40: documented differences from decimal.js', () => {
  it('an input with more than 40 significant digits is rounded half to even on construction', () => {
    fc.assert(
      fc.property(longStringArb, (s) => {
        const rounded = new Clone(s).toSignificantDigits(40, Clone.ROUND_HALF_EVEN);
        assertSame(`new Decimal40(${show(s)})`, new Decimal40(s), rounded);
      }),
      PARAMS,
    );
  });

  it('the long inputs have 41 to 60 digits, with ties and all-nines among them', () => {
    const counts = countWhere(sample(longStringArb), {
      '41+ digits': (s) => shape(s).digits.length > 40,
      'a tie': (s) => isTie(s),
      '99…9': (s) => /^9{41,}$/.test(shape(s).digits),
    });
    for (const [name, count] of Object.entries(counts)) expect(count, name).toBeGreaterThanOrEqual(5);
    expect(Math.max(...sample(longStringArb).map((s) => shape(s).digits.length))).toBe(60);
  });

  it.each([
    // 45 digits: the last five are dropped, below half.
    ['1234567890123456789012345678901234567890.12345', '1234567890123456789012345678901234567890'],
    // Exactly half: to the even neighbour, down from …0 and up from …1.
    ['1234567890123456789012345678901234567890.50000', '1234567890123456789012345678901234567890'],
    ['1234567890123456789012345678901234567891.50000', '1234567890123456789012345678901234567892'],
    // Just above half: up.
    ['1234567890123456789012345678901234567890.50001', '1234567890123456789012345678901234567891'],
    // A carry through all forty digits.
    ['9999999999999999999999999999999999999999.99999', '10000000000000000000000000000000000000000'],
    ['-0.000123456789012345678901234567890123456789012345', '-0.000123456789012345678901234567890123456789'],
    ['123456789012345678901234567890123456789012345e-50', '0.00000123456789012345678901234567890123456789'],
  ])('new Decimal40(%s) is %s', (input, expected) => {
    expect(new Decimal40(input).toString()).toBe(expected);
  });

  it('every zero is +0: from -0, from "-0.000", and as a result', () => {
    const zeros: Array<[string, Decimal40]> = [
      ['new Decimal40(-0)', new Decimal40(-0)],
      ['new Decimal40("-0")', new Decimal40('-0')],
      ['new Decimal40("-0.000e5")', new Decimal40('-0.000e5')],
      ['-1 + 1', new Decimal40(-1).plus(1)],
      ['1.5 - 1.5', new Decimal40('1.5').minus('1.5')],
      ['-3 × 0', new Decimal40(-3).times(0)], // decimal.js: -0
      ['0 × -3', new Decimal40(0).times(-3)], // decimal.js: -0
      ['0 / -7', new Decimal40(0).div(-7)], // decimal.js: -0
      ['neg(0)', new Decimal40(0).neg()], // decimal.js: -0
      ['abs(-0)', new Decimal40(-0).abs()],
      ['roundHalfUp(-0.4)', new Decimal40('-0.4').roundHalfUp()], // decimal.js: -0
      ['max(-0, 0)', Decimal40.max(new Decimal40(-0), new Decimal40(0))],
      ['min(-0, 0)', Decimal40.min(new Decimal40(-0), new Decimal40(0))],
    ];
    for (const [what, zero] of zeros) {
      expect(zero.isZero(), what).toBe(true);
      expect(Object.is(zero.toNumber(), 0), `${what}: toNumber() is +0`).toBe(true);
      expect(zero.isNegative(), what).toBe(false);
      expect(zero.isPositive(), what).toBe(false);
      expect(zero.toString(), what).toBe('0');
      expect(zero.toFixed(2), what).toBe('0.00');
      expect(zero.toExponential(1), what).toBe('0.0e+0');
      expect(zero.eq(new Decimal40(0)), what).toBe(true);
    }
  });
});

describe('Decimal40: hand-written cases', () => {
  it.each<[Input, Op, Input, string]>([
    ['0.1', 'plus', '0.2', '0.3'],
    // JSON numbers are read as they print (0.1 is "0.1", not the binary fraction).
    [0.1, 'plus', 0.2, '0.3'],
    // Division rounds the 40th digit: 40 threes; 39 sixes and a 7.
    ['1', 'div', '3', '0.3333333333333333333333333333333333333333'],
    ['2', 'div', '3', '0.6666666666666666666666666666666666666667'],
    ['-2', 'div', '3', '-0.6666666666666666666666666666666666666667'],
    // A tie (40 digits and a half) goes to the even neighbour: up from an odd last digit…
    ['1234567890123456789012345678901234567891', 'plus', '0.5', '1234567890123456789012345678901234567892'],
    // …and not from an even one.
    ['1234567890123456789012345678901234567890', 'plus', '0.5', '1234567890123456789012345678901234567890'],
    // Just above half rounds up.
    [
      '1234567890123456789012345678901234567890',
      'plus',
      '0.5000000000000000000000000000000000000001',
      '1234567890123456789012345678901234567891',
    ],
    // Ties are symmetric in the sign.
    ['-1234567890123456789012345678901234567891', 'minus', '0.5', '-1234567890123456789012345678901234567892'],
    ['-1234567890123456789012345678901234567890', 'minus', '0.5', '-1234567890123456789012345678901234567890'],
    // Ties in times and div.
    ['2469135780246913578024691357802469135783', 'times', '0.5', '1234567890123456789012345678901234567892'],
    ['2469135780246913578024691357802469135781', 'div', '2', '1234567890123456789012345678901234567890'],
    // A product just below a power of ten rounds up through every limb to it: 1 − 10^-78, and
    // 13 × 0.0769…692 = 0.99…996 (41 digits) with the one-limb factor on either side.
    ['0.999999999999999999999999999999999999999', 'times', '1.000000000000000000000000000000000000001', '1'],
    ['13', 'times', '0.07692307692307692307692307692307692307692', '1'],
    ['0.07692307692307692307692307692307692307692', 'times', '13', '1'],
    // …and with a factor of six digits (two limbs) on either side.
    ['100015', 'times', '0.000009998500224966255061740738889166625006249', '1'],
    ['0.000009998500224966255061740738889166625006249', 'times', '100015', '1'],
    // A quotient just below a whole number, 10.99…989, rounds up through every limb to it.
    ['1', 'div', '0.09090909090909090909090909090909090909091', '11'],
    // A power of ten moves the exponent of a 40-digit coefficient, on either side, of either sign.
    ['1234567890123456789012345678901234567891', 'times', '0.01', '12345678901234567890123456789012345678.91'],
    ['0.001', 'times', '-1234567890123456789012345678901234567891', '-1234567890123456789012345678901234567.891'],
    ['-9.999999999999999999999999999999999999999', 'times', '-1e20', '999999999999999999999.9999999999999999999'],
    ['123.45', 'times', '0.1', '12.345'],
    // A product whose top limb has two digits (3.3 × 3 = 10…) and one with three (9.9 × 9.9 = 99…).
    ['3.333333333333333333333333333333333333333', 'times', '3.000000000000000000000000000000000000001', '10'],
    [
      '9.999999999999999999999999999999999999999',
      'times',
      '9.999999999999999999999999999999999999999',
      '99.99999999999999999999999999999999999998',
    ],
    // A carry through all forty digits, printed plainly with 41 digits.
    ['9999999999999999999999999999999999999999', 'plus', '1', '10000000000000000000000000000000000000000'],
    // A tie on a 9: rounds up and carries through all digits.
    ['9999999999999999999999999999999999999999', 'plus', '0.5', '10000000000000000000000000000000000000000'],
    ['0.9999999999999999999999999999999999999999', 'plus', '0.00000000000000000000000000000000000000005', '1'],
    // Cancellation just below a power of ten: exact with 40 digits…
    ['1e39', 'minus', '1e-1', '999999999999999999999999999999999999999.9'],
    ['1', 'minus', '1e-40', '0.9999999999999999999999999999999999999999'],
    // …rounded back up to the power of ten with 41 or more.
    ['1e39', 'minus', '1e-3', '1000000000000000000000000000000000000000'],
    ['1', 'minus', '1e-41', '1'],
    // Cancellation that leaves one digit.
    ['1.000000000000000000000000000000000000001', 'minus', '1', '0.000000000000000000000000000000000000001'],
    // A tiny operand: it cannot change a 40-digit result, whatever its distance.
    ['1e40', 'plus', '1e-40', '10000000000000000000000000000000000000000'],
    ['1', 'plus', '1e-80', '1'],
    ['1', 'minus', '1e-80', '1'],
    // …unless the first operand is short: 2 + 3e-39 needs 40 digits.
    ['2', 'plus', '3e-39', '2.000000000000000000000000000000000000003'],
    // x - x is 0.
    ['12345.6789', 'minus', '12345.6789', '0'],
    ['-7e-50', 'plus', '7e-50', '0'],
  ])('%o %s %o = %s', (a, op, b, expected) => {
    expect(new Decimal40(a)[op](new Decimal40(b)).toString()).toBe(expected);
  });

  it('division by zero throws a RangeError', () => {
    for (const zero of [0, -0, '0', '-0.000', '0e5']) {
      expect(() => new Decimal40(1).div(zero), `1 / ${show(zero)}`).toThrow(RangeError);
      expect(() => new Decimal40('-2.5').div(new Decimal40(zero)), `-2.5 / ${show(zero)}`).toThrow(RangeError);
      expect(() => new Decimal40(0).div(zero), `0 / ${show(zero)}`).toThrow(RangeError);
    }
  });

  it.each<[Input]>([
    [NaN],
    [Infinity],
    [-Infinity],
    ['abc'],
    [''],
    [' 1'],
    ['1 '],
    ['1e'],
    ['e5'],
    ['.'],
    ['-'],
    ['+'],
    ['.e1'],
    ['1.2.3'],
    ['--1'],
    ['+-1'],
    ['1e+-2'],
    ['0x10'],
    ['Infinity'],
    ['NaN'],
    ['1,5'],
    ['1_000'],
  ])('the invalid input %o throws a TypeError, as a value and as an operand', (input) => {
    expect(() => new Decimal40(input)).toThrow(TypeError);
    expect(() => new Decimal40(1).plus(input)).toThrow(TypeError);
  });

  it('a value of another type (null, a plain object, a decimal.js instance) throws a TypeError', () => {
    for (const input of [null, undefined, {}, { s: 1, e: 0, c0: 1 }, new Clone(5)] as unknown as Input[]) {
      expect(() => new Decimal40(input), String(input)).toThrow(TypeError);
      expect(() => new Decimal40(1).plus(input), String(input)).toThrow(TypeError);
    }
  });

  it.each<[Input, string]>([
    ['12.', '12'],
    ['.5', '0.5'],
    ['+2.5E+7', '25000000'],
    ['-1e-9', '-0.000000001'],
    ['007.50', '7.5'],
    ['1E3', '1000'],
    ['-1.5e25', '-15000000000000000000000000'],
    ['1e-20', '0.00000000000000000001'],
    [1e21, '1000000000000000000000'],
    [1.5e-7, '0.00000015'],
    [-123.45, '-123.45'],
  ])('new Decimal40(%s) prints as %s (plain notation, never an exponent)', (input, expected) => {
    expect(new Decimal40(input).toString()).toBe(expected);
  });

  it.each<[string, number]>([
    ['0.1', 0.1],
    // 2^53 + 1 is half-way between two doubles: to the even one…
    ['9007199254740993', 9007199254740992],
    // …but any digit further down decides, even the 40th.
    ['9007199254740993.000000000000000000000001', 9007199254740994],
    ['1e400', Infinity],
    ['-1e400', -Infinity],
    ['1e-400', 0],
  ])('new Decimal40(%s).toNumber() is the nearest double, %s', (input, expected) => {
    expect(new Decimal40(input).toNumber()).toBe(expected);
  });

  it.each<[string, number, string]>([
    ['2.5', 0, '2'], // half to even
    ['3.5', 0, '4'],
    ['-2.5', 0, '-2'],
    ['1.005', 2, '1.00'],
    ['1.015', 2, '1.02'],
    ['123.456', 5, '123.45600'],
    ['1e21', 0, '1000000000000000000000'],
    ['1e-7', 3, '0.000'],
    // A negative value that rounds to zero keeps its sign, as in decimal.js: it is not a zero.
    ['-1e-7', 3, '-0.000'],
    ['0', 2, '0.00'],
    ['-0', 2, '0.00'],
  ])('new Decimal40(%s).toFixed(%s) is %s', (input, dp, expected) => {
    expect(new Decimal40(input).toFixed(dp)).toBe(expected);
  });

  it.each<[string, number, string]>([
    ['123.456', 2, '1.23e+2'],
    ['125', 1, '1.2e+2'], // half to even
    ['135', 1, '1.4e+2'],
    ['-9.95', 1, '-1.0e+1'], // a tie on a 9 carries into the exponent
    ['0.000999', 0, '1e-3'],
    ['0', 2, '0.00e+0'],
    ['1e-70', 3, '1.000e-70'],
  ])('new Decimal40(%s).toExponential(%s) is %s', (input, dp, expected) => {
    expect(new Decimal40(input).toExponential(dp)).toBe(expected);
  });

  it.each<[string, string]>([
    ['2.5', '3'], // half away from zero, unlike toFixed
    ['-2.5', '-3'],
    ['0.5', '1'],
    ['-0.5', '-1'],
    ['2.499999999999999999999999999999999999999', '2'],
    ['-0.4', '0'],
    ['123456789012345678901234567890.5', '123456789012345678901234567891'],
    ['1e45', '1000000000000000000000000000000000000000000000'],
  ])('new Decimal40(%s).roundHalfUp() is %s', (input, expected) => {
    expect(new Decimal40(input).roundHalfUp().toString()).toBe(expected);
  });
});
