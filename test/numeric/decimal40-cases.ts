/**
 * Generators and helpers for the Decimal40 differential tests (decimal40.test.ts).
 *
 * Every generated decimal string is spelled from explicit parts (sign, significant digits,
 * exponent), so a test knows exactly what it holds. No generated input has more than 40
 * significant digits: Decimal40 rounds longer inputs on construction where decimal.js keeps
 * them (a documented difference), so longer inputs have their own generator, `longStringArb`.
 */
import { Decimal as DecimalJs } from 'decimal.js';
import fc from 'fast-check';

/**
 * The reference: decimal.js with the project's settings (40 significant digits, half to even,
 * plain notation). Built here from decimal.js itself rather than imported from
 * src/numeric/decimal.ts, whose `Decimal` may be Decimal40: the tests must never compare
 * Decimal40 with itself.
 */
export const Clone = DecimalJs.clone({
  precision: 40,
  rounding: DecimalJs.ROUND_HALF_EVEN,
  toExpNeg: -9e15,
  toExpPos: 9e15,
});

/** A constructor or operand input: a JSON number or a decimal string. */
export type Input = number | string;
export type Pair = readonly [Input, Input];
export type Op = 'plus' | 'minus' | 'times' | 'div';
export const OPS: readonly Op[] = ['plus', 'minus', 'times', 'div'];

/** The same knobs as test/properties/run.ts: raise the runs to search harder, change the seed to search elsewhere. */
export const PROPERTY_RUNS = Number(process.env.COPYSIM_PROPERTY_RUNS ?? 200);
export const PROPERTY_SEED = Number(process.env.COPYSIM_PROPERTY_SEED ?? 20240310);

/**
 * Exact arithmetic, for the generator checks only: 1,000 digits hold any sum, difference or
 * product of two generated values without rounding (the widest, two doubles, needs 632).
 */
export const Exact = DecimalJs.clone({
  precision: 1000,
  rounding: DecimalJs.ROUND_HALF_EVEN,
  toExpNeg: -9e15,
  toExpPos: 9e15,
});

// ---------------------------------------------------------------------------------------------
// Decimal strings from parts
// ---------------------------------------------------------------------------------------------

/** A non-zero decimal as parts: `±d1.d2d3… × 10^exponent`. */
export interface Parts {
  readonly negative: boolean;
  /** The digits, the first non-zero; trailing zeros are allowed (they are not significant). */
  readonly digits: string;
  /** The exponent of the first digit (its scientific exponent). */
  readonly exponent: number;
}

/** How a value is written: the grammar allows a sign, `12.`, `.5`, leading zeros, `e`/`E` and a signed exponent. */
export interface Spelling {
  readonly scientific: boolean;
  /** Scientific: the coefficient as an integer (`12345e-4`) rather than `1.2345e0`. */
  readonly integerCoefficient: boolean;
  readonly upperE: boolean;
  readonly plusExponent: boolean;
  readonly plusSign: boolean;
  /** Plain: `.5` rather than `0.5`. */
  readonly leadingPoint: boolean;
  /** `12.` rather than `12`. */
  readonly trailingPoint: boolean;
  /** Plain: `007.5`. */
  readonly leadingZeros: boolean;
  /** Zeros written after the last digit, behind a point (not significant). */
  readonly pad: number;
}

export const spellingArb: fc.Arbitrary<Spelling> = fc.record({
  scientific: fc.boolean(),
  integerCoefficient: fc.boolean(),
  upperE: fc.boolean(),
  plusExponent: fc.boolean(),
  plusSign: fc.boolean(),
  leadingPoint: fc.boolean(),
  trailingPoint: fc.boolean(),
  leadingZeros: fc.integer({ min: 0, max: 7 }).map((n) => n === 0),
  pad: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 4 })),
});

/** Writes the parts as a decimal string in the given spelling. */
export function spell(parts: Parts, how: Spelling): string {
  const sign = parts.negative ? '-' : how.plusSign ? '+' : '';
  const digits = parts.digits;
  const pad = '0'.repeat(how.pad);
  if (how.scientific) {
    let coefficient: string;
    let exponent = parts.exponent;
    if (how.integerCoefficient) {
      coefficient = digits;
      exponent -= digits.length - 1;
    } else if (digits.length > 1 || pad) {
      coefficient = `${digits.slice(0, 1)}.${digits.slice(1)}${pad}`;
    } else {
      coefficient = how.trailingPoint ? `${digits}.` : digits;
    }
    const e = how.upperE ? 'E' : 'e';
    const exponentSign = exponent < 0 ? '-' : how.plusExponent ? '+' : '';
    return `${sign}${coefficient}${e}${exponentSign}${Math.abs(exponent)}`;
  }
  const before = parts.exponent + 1; // digits before the point
  let text: string;
  if (before <= 0) {
    text = `${how.leadingPoint ? '.' : '0.'}${'0'.repeat(-before)}${digits}${pad}`;
  } else if (before >= digits.length) {
    const whole = digits + '0'.repeat(before - digits.length);
    text = pad ? `${whole}.${pad}` : how.trailingPoint ? `${whole}.` : whole;
  } else {
    text = `${digits.slice(0, before)}.${digits.slice(before)}${pad}`;
  }
  if (how.leadingZeros && !text.startsWith('.')) text = `00${text}`;
  return sign + text;
}

const digitArb = fc.integer({ min: 0, max: 9 });

/** `length` random digits, the first non-zero. */
function randomDigits(length: number): fc.Arbitrary<string> {
  return fc
    .tuple(fc.integer({ min: 1, max: 9 }), fc.array(digitArb, { minLength: length - 1, maxLength: length - 1 }))
    .map(([first, rest]) => `${first}${rest.join('')}`);
}

/** 1 to 40 significant digits, often exactly 40 (a full coefficient) or close to it. */
const lengthArb = fc.oneof(fc.integer({ min: 1, max: 40 }), fc.constant(40), fc.integer({ min: 36, max: 40 }));

/** Digit patterns that stress rounding and normalisation. */
export const digitsArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: lengthArb.chain(randomDigits) },
  // 99…9: a rounding or an addition carries through every digit.
  { weight: 1, arbitrary: lengthArb.map((n) => '9'.repeat(n)) },
  // 100…0: a subtraction borrows through every digit (written with trailing zeros).
  { weight: 1, arbitrary: lengthArb.map((n) => `1${'0'.repeat(n - 1)}`) },
  // …5: sums and products land exactly half-way between two 40-digit neighbours.
  {
    weight: 2,
    arbitrary: lengthArb.chain((n) => (n === 1 ? fc.constant('5') : randomDigits(n - 1).map((d) => `${d}5`))),
  },
  // Powers of 2 and 5 (exact quotients, ties in times and div) and small primes (endless quotients).
  {
    weight: 1,
    arbitrary: fc.constantFrom('2', '4', '8', '16', '32', '64', '5', '25', '125', '625', '3125', '3', '7', '11'),
  },
);

/** Scientific exponents from -70 to 70, often near 0 so that operands overlap. */
export const exponentArb = fc.oneof(fc.integer({ min: -70, max: 70 }), fc.integer({ min: -3, max: 3 }));

export function partsArb(exponent: fc.Arbitrary<number> = exponentArb, digits = digitsArb): fc.Arbitrary<Parts> {
  return fc.record({ negative: fc.boolean(), digits, exponent });
}

/** A non-zero decimal string with 1 to 40 significant digits. */
export function stringArb(exponent: fc.Arbitrary<number> = exponentArb): fc.Arbitrary<string> {
  return fc.tuple(partsArb(exponent), spellingArb).map(([parts, how]) => spell(parts, how));
}

/** Zero in every spelling, `-0` included (Decimal40 reads all of them as +0). */
export const zeroArb: fc.Arbitrary<Input> = fc.constantFrom<Input>(
  0,
  -0,
  '0',
  '-0',
  '+0',
  '0.000',
  '.0',
  '0.',
  '0e7',
  '-0.0E-5',
  '00',
);

/** Any finite JSON number, -0, subnormals and the largest double included. */
export const doubleArb: fc.Arbitrary<number> = fc.double({ noNaN: true, noDefaultInfinity: true });

/**
 * Values half-way between two multiples of 10^-dp, `±(n + ½)·10^-dp`, as strings and as JSON
 * numbers: ties for toFixed(dp), and for roundHalfUp when dp is 0.
 */
export const halfwayArb: fc.Arbitrary<Input> = fc
  .tuple(
    fc.integer({ min: -99_999, max: 99_999 }),
    fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 12 })),
    fc.boolean(),
  )
  .map(([n, dp, asNumber]) => {
    const text = `${n < 0 ? '-' : ''}${Math.abs(n) * 10 + 5}e-${dp + 1}`;
    return asNumber ? Number(text) : text;
  });

/** Any input: mostly spelled strings; zeros; halves; JSON numbers (any double, cents, small integers). */
export const valueArb: fc.Arbitrary<Input> = fc.oneof(
  { weight: 8, arbitrary: stringArb() },
  { weight: 1, arbitrary: zeroArb },
  { weight: 1, arbitrary: halfwayArb },
  { weight: 2, arbitrary: doubleArb },
  { weight: 1, arbitrary: fc.integer({ min: -1e9, max: 1e9 }).map((cents) => cents / 100) },
  // decimal.js reads integers below 1e7 on a fast path of its own.
  { weight: 1, arbitrary: fc.integer({ min: -9_999_999, max: 9_999_999 }) },
);

/** Strings with exponents -3..3: operands that overlap, so that chains mix their digits. */
export const nearValueArb: fc.Arbitrary<Input> = stringArb(fc.integer({ min: -3, max: 3 }));

// ---------------------------------------------------------------------------------------------
// Pairs of operands
// ---------------------------------------------------------------------------------------------

const signedDigitsArb = fc.record({ negative: fc.boolean(), digits: digitsArb });

/** Exponent differences that matter: equal, adjacent, around the 40-digit precision, far apart. */
const gapArb = fc.oneof(fc.constantFrom(0, 1, 80), fc.integer({ min: 38, max: 45 }), fc.integer({ min: 0, max: 90 }));

/** Two values whose leading digits lie `gap` decades apart, either one the larger. */
const gapPairArb: fc.Arbitrary<Pair> = fc
  .tuple(
    gapArb,
    fc.integer({ min: -70, max: 70 }),
    fc.boolean(),
    signedDigitsArb,
    signedDigitsArb,
    spellingArb,
    spellingArb,
  )
  .map(([gap, base, firstLarger, a, b, howA, howB]) => {
    let ea = base;
    let eb = firstLarger ? base - gap : base + gap;
    // Keep both within about ±75.
    const shift = Math.max(ea, eb) > 75 ? 75 - Math.max(ea, eb) : Math.min(ea, eb) < -75 ? -75 - Math.min(ea, eb) : 0;
    ea += shift;
    eb += shift;
    return [spell({ ...a, exponent: ea }, howA), spell({ ...b, exponent: eb }, howB)] as const;
  });

/**
 * Same exponent and a shared leading prefix: `minus` cancels most digits (and `plus` too when
 * the signs differ). With the whole prefix kept and nothing added, the two are equal.
 */
const closePairArb: fc.Arbitrary<Pair> = fc
  .tuple(
    partsArb(),
    fc.integer({ min: 1, max: 40 }),
    fc.array(digitArb, { maxLength: 40, size: 'max' }),
    fc.boolean(),
    spellingArb,
    spellingArb,
  )
  .map(([a, keep, tail, flip, howA, howB]) => {
    const digits = (a.digits.slice(0, keep) + tail.join('')).slice(0, 40);
    const b: Parts = { negative: flip ? !a.negative : a.negative, digits, exponent: a.exponent };
    return [spell(a, howA), spell(b, howB)] as const;
  });

/** One value in two spellings, possibly of opposite signs: `x - x` and `x + (-x)`. */
const samePairArb: fc.Arbitrary<Pair> = fc
  .tuple(partsArb(), fc.boolean(), spellingArb, spellingArb)
  .map(
    ([a, flip, howA, howB]) =>
      [spell(a, howA), spell({ ...a, negative: flip ? !a.negative : a.negative }, howB)] as const,
  );

/** 10^e next to 99…9 × 10^(e-n): a difference just below a power of ten. */
const powerOfTenPairArb: fc.Arbitrary<Pair> = fc
  .tuple(
    fc.integer({ min: -60, max: 60 }),
    fc.integer({ min: 1, max: 40 }),
    fc.boolean(),
    fc.boolean(),
    spellingArb,
    spellingArb,
  )
  .map(([e, nines, negative, swap, howA, howB]) => {
    const a = spell({ negative, digits: '1', exponent: e }, howA);
    const b = spell({ negative, digits: '9'.repeat(nines), exponent: e - 1 }, howB);
    return swap ? ([b, a] as const) : ([a, b] as const);
  });

/**
 * A 40-digit value and a value whose last digit is a 5 one place below the first one's last
 * digit: the exact sum or difference usually has 41 digits ending in 5, a half-way tie.
 */
const halfUlpPairArb: fc.Arbitrary<Pair> = fc
  .tuple(
    fc.oneof(randomDigits(40), fc.constant('9'.repeat(40))),
    fc.integer({ min: -60, max: 60 }),
    fc
      .integer({ min: 1, max: 40 })
      .chain((k) => (k === 1 ? fc.constant('5') : randomDigits(k - 1).map((d) => `${d}5`))),
    fc.boolean(),
    fc.boolean(),
    spellingArb,
    spellingArb,
  )
  .map(([aDigits, ea, bDigits, negA, negB, howA, howB]) => {
    // b's last digit sits at 10^(ea-40), one place below a's last digit at 10^(ea-39).
    const eb = ea - 40 + (bDigits.length - 1);
    return [
      spell({ negative: negA, digits: aDigits, exponent: ea }, howA),
      spell({ negative: negB, digits: bDigits, exponent: eb }, howB),
    ] as const;
  });

/** A 40-digit value and a small power of 2 or 5: `times` 5 and `div` 2 of an odd coefficient are ties. */
const exactTiePairArb: fc.Arbitrary<Pair> = fc
  .tuple(
    partsArb(exponentArb, randomDigits(40)),
    partsArb(fc.integer({ min: -3, max: 3 }), fc.constantFrom('2', '4', '8', '5', '25', '125')),
    spellingArb,
    spellingArb,
  )
  .map(([a, b, howA, howB]) => [spell(a, howA), spell(b, howB)] as const);

/** Operand pairs for the four operations and the comparisons. */
export const pairArb: fc.Arbitrary<Pair> = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(valueArb, valueArb) },
  { weight: 4, arbitrary: gapPairArb },
  { weight: 2, arbitrary: closePairArb },
  { weight: 1, arbitrary: samePairArb },
  { weight: 1, arbitrary: powerOfTenPairArb },
  { weight: 2, arbitrary: halfUlpPairArb },
  { weight: 1, arbitrary: exactTiePairArb },
  { weight: 1, arbitrary: fc.tuple(doubleArb, doubleArb) },
);

// ---------------------------------------------------------------------------------------------
// Chains
// ---------------------------------------------------------------------------------------------

/** One step of a chain: `acc = acc.op(operand)`; a null operand is the accumulator itself. */
export interface Step {
  readonly op: Op;
  readonly operand: Input | null;
}

const opArb = fc.constantFrom<Op>(...OPS);

export const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: opArb, operand: valueArb }) },
  { weight: 3, arbitrary: fc.record({ op: opArb, operand: nearValueArb }) },
  // acc + acc, acc - acc (zero), acc / acc (one). Not acc × acc: repeated squaring would reach
  // exponents of billions, whose plain toString cannot be printed.
  { weight: 1, arbitrary: fc.record({ op: fc.constantFrom<Op>('plus', 'minus', 'div'), operand: fc.constant(null) }) },
);

export const chainArb = fc.tuple(valueArb, fc.array(stepArb, { minLength: 2, maxLength: 30, size: 'max' }));

// ---------------------------------------------------------------------------------------------
// Inputs with more than 40 significant digits (the documented difference)
// ---------------------------------------------------------------------------------------------

/** 41 to 60 significant digits: random, 99…9 (rounds up to a power of ten) and 41-digit ties. */
export const longStringArb: fc.Arbitrary<string> = fc
  .tuple(
    partsArb(
      exponentArb,
      fc.oneof(
        fc.integer({ min: 41, max: 60 }).chain(randomDigits),
        fc.integer({ min: 41, max: 60 }).map((n) => '9'.repeat(n)),
        randomDigits(40).map((d) => `${d}5`),
      ),
    ),
    spellingArb,
  )
  .map(([parts, how]) => spell(parts, how));

// ---------------------------------------------------------------------------------------------
// Inspecting generated values (for the generator checks)
// ---------------------------------------------------------------------------------------------

/** A value's sign, significant digits (no trailing zeros) and scientific exponent, read exactly. */
export interface Shape {
  readonly zero: boolean;
  readonly negative: boolean;
  readonly digits: string;
  readonly exponent: number;
}

export function shape(value: Input | DecimalJs): Shape {
  const exact = new Exact(value);
  if (exact.isZero()) return { zero: true, negative: exact.isNeg(), digits: '0', exponent: 0 };
  const [coefficient = '', exponent = '0'] = exact.abs().toExponential().split('e');
  return { zero: false, negative: exact.isNeg(), digits: coefficient.replace('.', ''), exponent: Number(exponent) };
}

/** The exact result of an operation (1,000 digits: exact for plus, minus and times). */
export function exactResult(op: Op, a: Input, b: Input): DecimalJs {
  return new Exact(a)[op](new Exact(b));
}

/** True when rounding `value` to 40 significant digits is a half-way tie: 41 digits, the last a 5. */
export function isTie(value: Input | DecimalJs, digits = 40): boolean {
  const s = shape(value);
  return !s.zero && s.digits.length === digits + 1 && s.digits.endsWith('5');
}

/** True when `value` lies exactly half-way between two multiples of 10^-dp (a toFixed tie). */
export function isFixedTie(value: Input, dp: number): boolean {
  const scaled = new Exact(value).abs().times(new Exact(10).pow(dp));
  return scaled.minus(scaled.floor()).eq(0.5);
}

/** Counts the samples that satisfy each predicate. */
export function countWhere<T>(
  samples: readonly T[],
  predicates: Record<string, (sample: T) => boolean>,
): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [name, predicate] of Object.entries(predicates)) counts[name] = samples.filter(predicate).length;
  return counts;
}

/** 1,000 samples of an arbitrary, from the properties' seed. */
export function sample<T>(arbitrary: fc.Arbitrary<T>, count = 1000): T[] {
  return fc.sample(arbitrary, { seed: PROPERTY_SEED, numRuns: count });
}
