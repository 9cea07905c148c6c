/**
 * Double words with a proven error bound (`src/numeric/bounded.ts`): each operation's interval
 * holds the value the exact arithmetic computes with the same formula, the printed double it
 * decides is the exact value's, and a comparison the intervals cannot decide is refused rather
 * than guessed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  atMost,
  type Bounded,
  dividedBy,
  exactly,
  fromDecimal,
  minus,
  larger,
  minusFloored,
  plus,
  printed,
  sign,
  smaller,
  times,
  Undecided,
} from '../../src/numeric/bounded.js';
import { Decimal, toJsonNumber } from '../../src/numeric/decimal.js';
import { toWord } from '../../src/numeric/double-word.js';

/**
 * True when the printed value of the exact decimal (its nearest double) lies in the interval, and
 * is the double the bounded number prints when it decides one.
 */
function holds(b: Bounded, exact: Decimal): boolean {
  const nearest = toJsonNumber(exact);
  if (!(b.low <= nearest && nearest <= b.high)) return false;
  try {
    return printed(b, 'test') === nearest;
  } catch (e) {
    if (e instanceof Undecided) return true;
    throw e;
  }
}

describe('each operation holds the exact result', () => {
  it('by hand: 0.1 + 0.2 holds 0.3 within 2^-96 of it, and prints 0.3 (not 0.30000000000000004)', () => {
    const sum = plus(fromDecimal('0.1'), fromDecimal('0.2'));
    expect(sum.low).toBeLessThanOrEqual(0.3);
    expect(sum.high).toBeGreaterThanOrEqual(0.3);
    expect(sum.radius).toBeLessThan(0.3 * 2 ** -96);
    expect(printed(sum, 'test')).toBe(0.3);
  });

  it('by hand: whole numbers stay exact until rounding can enter', () => {
    const sum = plus(exactly(300), exactly(300));
    expect(sum.head).toBe(600);
    expect(printed(sum, 'test')).toBe(600);
    expect(sum.low).toBeLessThanOrEqual(600);
    expect(sum.high).toBeGreaterThanOrEqual(600);
    // 50 / 10.1 × 12 / 1.01 − 50 = 600 / 10.201 − 50 = 8.8177629644152…
    const quantity = dividedBy(exactly(50), times(fromDecimal('10.1'), exactly(1)));
    const pnl = minus(dividedBy(times(quantity, exactly(12)), fromDecimal('1.01')), exactly(50));
    expect(holds(pnl, new Decimal(600).div('10.201').minus(50))).toBe(true);
    expect(printed(pnl, 'test')).toBe(8.817762964415253);
    // The operands are near 60 USD, and each step widens by 2^-98 of them.
    expect(pnl.radius).toBeLessThan(1e-25);
  });

  it('by hand: a whole number of the input enters exactly; an exact 0 added and a number less itself are exact', () => {
    for (const balance of [fromDecimal(1000), fromDecimal('1000')]) {
      expect([balance.head, balance.tail, balance.radius]).toEqual([1000, 0, 0]);
    }
    expect(fromDecimal('1000.5').radius).toBeGreaterThan(0);
    expect(fromDecimal('10000000000000000').radius).toBeGreaterThan(0); // 17 digits: converted
    const price = fromDecimal('0.1');
    expect(plus(price, exactly(0))).toBe(price);
    expect(plus(exactly(0), price)).toBe(price);
    expect(minus(price, exactly(0))).toBe(price);
    // A figure of no trade, (balance − balance) / balance, prints 0: every number within a
    // radius above 0 of 0 straddles the edge of two doubles' cells.
    const odd = fromDecimal('1000.5');
    expect(printed(dividedBy(times(exactly(100), minus(odd, odd)), odd), 'test')).toBe(0);
    expect(() => printed(minus(odd, fromDecimal('1000.5')), 'test')).toThrow(Undecided);
  });

  const decimalText = fc
    .tuple(fc.integer({ min: 1, max: 999_999_999_999 }), fc.integer({ min: -12, max: 6 }), fc.boolean())
    .map(([digits, exponent, negative]) => `${negative ? '-' : ''}${digits}e${exponent}`);

  it('plus, minus, times and dividedBy of decimals hold the 40-digit result', () => {
    fc.assert(
      fc.property(decimalText, decimalText, (a, b) => {
        const x = fromDecimal(a);
        const y = fromDecimal(b);
        const da = new Decimal(a);
        const db = new Decimal(b);
        expect(holds(plus(x, y), da.plus(db))).toBe(true);
        expect(holds(minus(x, y), da.minus(db))).toBe(true);
        expect(holds(times(x, y), da.times(db))).toBe(true);
        expect(holds(dividedBy(x, y), da.div(db))).toBe(true);
      }),
    );
  });

  it('decimals of 16 to 30 significant digits convert within 2^-100 and print as Number reads them', () => {
    const long = fc
      .tuple(fc.bigInt({ min: 10n ** 15n, max: 10n ** 30n - 1n }), fc.integer({ min: 0, max: 30 }), fc.boolean())
      .map(([digits, fraction, negative]) => {
        const text = digits.toString();
        const cut = text.length - Math.min(fraction, text.length - 1);
        return `${negative ? '-' : ''}${text.slice(0, cut)}${cut < text.length ? `.${text.slice(cut)}` : ''}`;
      });
    fc.assert(
      fc.property(long, (text) => {
        const b = fromDecimal(text);
        const viaDecimal = new Float64Array(2);
        toWord(viaDecimal, new Decimal(text));
        expect(b.head).toBe(viaDecimal[0]);
        expect(Math.abs(b.tail - viaDecimal[1]!)).toBeLessThanOrEqual(Math.abs(b.head) * 2 ** -100);
        expect(printed(b, 'test')).toBe(Number(text));
      }),
    );
    // By hand: a heavy tape's quantity, 16 digits.
    expect(printed(fromDecimal('2068191271.290775'), 'test')).toBe(2068191271.290775);
  });

  it('chains of operations hold the chained 40-digit result', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('+', '-', '*', '/'), decimalText), { maxLength: 12 }), (steps) => {
        let bounded = fromDecimal('1000');
        let exact = new Decimal('1000');
        for (const [op, text] of steps) {
          const b = fromDecimal(text);
          const d = new Decimal(text);
          if (op === '+') [bounded, exact] = [plus(bounded, b), exact.plus(d)];
          else if (op === '-') [bounded, exact] = [minus(bounded, b), exact.minus(d)];
          else if (op === '*') [bounded, exact] = [times(bounded, b), exact.times(d)];
          else [bounded, exact] = [dividedBy(bounded, b), exact.div(d)];
        }
        if (Number.isFinite(bounded.high - bounded.low)) expect(holds(bounded, exact)).toBe(true);
      }),
    );
  });
});

describe('decisions', () => {
  it('compares when the intervals are apart, and refuses when they overlap', () => {
    expect(atMost(fromDecimal('1'), fromDecimal('2'), 'test')).toBe(true);
    expect(atMost(fromDecimal('2'), fromDecimal('1'), 'test')).toBe(false);
    // Two exactly known numbers compare as they are, ties included.
    expect(atMost(exactly(1), exactly(1), 'test')).toBe(true);
    // 0.1 + 0.2 against 0.3: the doubles differ, the decimals do not; no answer is given.
    expect(() => atMost(plus(fromDecimal('0.1'), fromDecimal('0.2')), fromDecimal('0.3'), 'a tie')).toThrow(Undecided);
  });

  it('the smaller of two: the lower one when apart, an interval over both when not', () => {
    const low = fromDecimal('100');
    const high = fromDecimal('300');
    expect(smaller(high, low)).toBe(low);
    const a = plus(fromDecimal('0.1'), fromDecimal('0.2'));
    const b = fromDecimal('0.3');
    const either = smaller(a, b);
    for (const v of [a.head, b.head]) {
      expect(either.low).toBeLessThanOrEqual(v);
      expect(either.high).toBeGreaterThanOrEqual(v);
    }
  });

  it('a difference floored at zero: exactly 0 when surely below, [0, high] when undecided', () => {
    expect(minusFloored(exactly(3), exactly(5))).toEqual(exactly(0));
    expect(minusFloored(exactly(5), exactly(5))).toEqual(exactly(0));
    expect(minusFloored(fromDecimal('5'), fromDecimal('3')).head).toBe(2);
    const near = minusFloored(plus(fromDecimal('0.1'), fromDecimal('0.2')), fromDecimal('0.3'));
    expect(near.low).toBeLessThanOrEqual(0);
    expect(near.high).toBeGreaterThan(0);
  });

  it('the larger of two, as the smaller', () => {
    const low = fromDecimal('100');
    const high = fromDecimal('300');
    expect(larger(low, high)).toBe(high);
    const a = plus(fromDecimal('0.1'), fromDecimal('0.2'));
    const either = larger(a, fromDecimal('0.3'));
    expect(either.low).toBeLessThanOrEqual(0.3);
    expect(either.high).toBeGreaterThanOrEqual(0.3);
  });

  it('a sign: exact zeros are 0, a sum that may be zero is refused', () => {
    expect(sign(exactly(0), 'test')).toBe(0);
    expect(sign(fromDecimal('-1e-12'), 'test')).toBe(-1);
    expect(() => sign(minus(plus(fromDecimal('0.1'), fromDecimal('0.2')), fromDecimal('0.3')), 'test')).toThrow(
      Undecided,
    );
  });

  it('a printed figure near the middle of two doubles is refused', () => {
    // 1 + 2^-53 lies on the midpoint between 1 and the next double: no single double within reach.
    const midpoint = plus(fromDecimal('1'), fromDecimal('1.1102230246251565404236316680908203125e-16'));
    expect(() => printed(midpoint, 'test')).toThrow(Undecided);
    expect(printed(exactly(0), 'test')).toBe(0);
  });

  it('a divisor that may be zero is refused', () => {
    const maybeZero = minus(plus(fromDecimal('0.1'), fromDecimal('0.2')), fromDecimal('0.3'));
    expect(() => dividedBy(exactly(1), maybeZero)).toThrow(Undecided);
  });
});
