import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DecimalJs40 as Decimal } from '../../src/numeric/decimal.js';
import {
  exactQuotient,
  quotientTape,
  readDigitsDecimal,
  roundedPlain,
  tapeFormDigits,
} from '../../src/io/import/export-decimal.js';

/** The decimal.js reference: the magnitude, at most 20 significant digits, plain notation. */
function decimalJsTape(value: Decimal): string {
  const magnitude = value.abs();
  return (magnitude.sd() <= 20 ? magnitude : magnitude.toSignificantDigits(20)).toString();
}

const ACCEPTED = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

const tapeOf = (text: string): string | null | undefined => {
  const read = readDigitsDecimal(text);
  return read === null || read === undefined ? read : read.tape;
};

describe('readDigitsDecimal: an export amount read without decimal.js', () => {
  it('writes the plain magnitude of any accepted form', () => {
    expect(tapeOf('2067570060')).toBe('2067570060');
    expect(tapeOf('412.49')).toBe('412.49');
    expect(tapeOf('-0012.50e1')).toBe('125');
    expect(tapeOf('+.5')).toBe('0.5');
    expect(tapeOf('1e-9')).toBe('0.000000001');
    expect(tapeOf('1.5E+3')).toBe('1500');
    expect(tapeOf('1.')).toBe('1');
    expect(tapeOf(' 12 ')).toBe('12');
    expect(tapeOf('0.000')).toBe('0');
    expect(readDigitsDecimal('-0.0')!.isZero()).toBe(true);
  });

  it('rounds past 20 significant digits half to even', () => {
    // 21 digits ending in 5: a tie, kept as is when the 20th digit is even, up when odd.
    expect(tapeOf('123456789012345678905')).toBe('123456789012345678900');
    expect(tapeOf('123456789012345678915')).toBe('123456789012345678920');
    // Anything after the 5 makes it more than a half.
    expect(tapeOf('1234567890123456789050001')).toBe('1234567890123456789100000');
    expect(tapeOf('0.123456789012345678904999')).toBe('0.1234567890123456789');
    // A carry through every digit adds one.
    expect(tapeOf('99999999999999999999.5')).toBe('100000000000000000000');
  });

  it('rejects what is not a decimal and leaves to decimal.js what it does not read', () => {
    for (const bad of [
      '',
      '.',
      '+',
      '-',
      'e5',
      '1e',
      '1e+',
      '.e5',
      '1.2.3',
      '1 2',
      '0x10',
      'NaN',
      'Infinity',
      '1e5.',
    ]) {
      expect(readDigitsDecimal(bad)).toBeNull();
    }
    expect(readDigitsDecimal('1'.repeat(41))).toBeUndefined();
    expect(readDigitsDecimal('1e999999')).toBeUndefined();
    expect(readDigitsDecimal('1e1234567')).toBeUndefined();
  });

  it('agrees with decimal.js on generated decimal texts', () => {
    fc.assert(
      fc.property(decimalText(), (text) => {
        const read = readDigitsDecimal(text);
        if (!ACCEPTED.test(text.trim())) return read === null;
        if (read === undefined) return true;
        const exact = new Decimal(text.trim()).abs();
        expect(read!.tape).toBe(decimalJsTape(exact));
        expect(read!.toNumber()).toBe(exact.toNumber());
        expect(read!.toDecimal().eq(exact)).toBe(true);
        return true;
      }),
      { numRuns: 3000 },
    );
  });
});

describe('quotient: a price as decimal.js divides (40 digits, half to even), then 20 for the tape', () => {
  const price = (amount: string, quantity: string): string =>
    quotientTape(readDigitsDecimal(amount)!, readDigitsDecimal(quantity)!);

  it('gives hand-computed prices', () => {
    expect(price('1', '3')).toBe('0.33333333333333333333');
    expect(price('2', '3')).toBe('0.66666666666666666667');
    expect(price('1', '7')).toBe('0.14285714285714285714');
    expect(price('10', '4')).toBe('2.5');
    expect(price('1', '0.3')).toBe('3.3333333333333333333');
    // bc: 412.49 / 2067570060 = 0.000000199504726819269185973799…: the 21st digit a 3.
    expect(price('412.49', '2067570060')).toBe('0.00000019950472681926918597');
    // The 21st digit a 5 and nothing after: half to even.
    expect(price('123456789012345678905', '10')).toBe('12345678901234567890');
    expect(price('123456789012345678915', '10')).toBe('12345678901234567892');
    // Rounding 99…9.5 carries into a 21st digit.
    expect(price('99999999999999999999.5', '1')).toBe('100000000000000000000');
    // Trailing zeros in the 20th digit, in a whole limb (digits 13 to 19) and in two of them.
    expect(price('1', '8')).toBe('0.125');
    expect(price('12345678901234567890', '1')).toBe('12345678901234567890');
    expect(price('123456789012340000000', '1')).toBe('123456789012340000000');
    expect(price('1234567000000000000000000', '1')).toBe('1234567000000000000000000');
    expect(price('1', '1')).toBe('1');
  });

  it('takes texts in tape form as they are', () => {
    expect(quotientTape('1911.62', '8938504880')).toBe(price('1911.62', '8938504880'));
  });

  it('agrees with decimal.js on generated amounts', () => {
    fc.assert(
      fc.property(positiveText(), positiveText(), (amount, quantity) => {
        const a = readDigitsDecimal(amount);
        const q = readDigitsDecimal(quantity);
        if (!a || !q || a.isZero() || q.isZero()) return true;
        const exact = new Decimal(amount).abs().div(new Decimal(quantity).abs());
        const tape = quotientTape(a, q);
        expect(tape).toBe(decimalJsTape(exact));
        // The tape text's float64 (what the outlier check compares): within an ulp of the exact value's.
        expect(Math.abs(Number(tape) - exact.toNumber())).toBeLessThanOrEqual(Math.abs(exact.toNumber()) * 2 ** -52);
        expect(exactQuotient(a, q).eq(exact)).toBe(true);
        return true;
      }),
      { numRuns: 3000 },
    );
  });
});

describe('roundedPlain and tapeFormDigits', () => {
  it('rounds digits to a count half to even', () => {
    expect(roundedPlain('125', -2, 2)).toBe('1.2');
    expect(roundedPlain('135', -2, 2)).toBe('1.4');
    expect(roundedPlain('1251', -3, 2)).toBe('1.3');
    expect(roundedPlain('995', 0, 2)).toBe('1000');
  });

  it('counts the digits of a text that is already its own tape text, else -1', () => {
    expect(tapeFormDigits('0.0125')).toBe(3);
    expect(tapeFormDigits('412.49')).toBe(5);
    expect(tapeFormDigits('2067570060')).toBe(10);
    expect(tapeFormDigits('12345678901234567890')).toBe(20);
    for (const other of ['123456789012345678901', '1.50', '01', '.5', '5.', '+1', '-1', '1e5', '0', '0.0', ' 1', '']) {
      expect(tapeFormDigits(other)).toBe(-1);
    }
  });

  it('answers only for texts decimal.js prints the same way', () => {
    fc.assert(
      fc.property(decimalText(), (text) => {
        if (tapeFormDigits(text) < 0) return true;
        return new Decimal(text).toString() === text && new Decimal(text).gt(0);
      }),
      { numRuns: 3000 },
    );
  });
});

/** Digit strings with runs of zeros and nines, where rounding and carries happen. */
function digitRun(maxLength: number): fc.Arbitrary<string> {
  return fc
    .array(fc.constantFrom('0', '0', '9', '9', '5', '1', '2', '4', '6', '7', '3', '8'), { minLength: 0, maxLength })
    .map((d) => d.join(''));
}

/** Decimal-like texts: signs, leading zeros, points, exponents, many digits, white space, junk. */
function decimalText(): fc.Arbitrary<string> {
  return fc.oneof(
    fc
      .tuple(
        fc.constantFrom('', '', '+', '-'),
        digitRun(25),
        fc.constantFrom('', '.', '.'),
        digitRun(25),
        fc.oneof(
          fc.constant(''),
          fc.constant(''),
          fc
            .tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.integer({ min: 0, max: 80 }))
            .map(([e, s, n]) => `${e}${s}${n}`),
        ),
        fc.constantFrom('', '', '', ' ', '\t'),
      )
      .map(([sign, int, point, fraction, exponent, pad]) => `${pad}${sign}${int}${point}${fraction}${exponent}${pad}`),
    fc.string({ maxLength: 8 }),
  );
}

function positiveText(): fc.Arbitrary<string> {
  return fc
    .tuple(
      digitRun(22),
      fc.constantFrom('', '.'),
      digitRun(22),
      fc.oneof(
        fc.constant(''),
        fc.integer({ min: -30, max: 30 }).map((n) => `e${n}`),
      ),
    )
    .map(([int, point, fraction, exponent]) => `${int || '1'}${point}${fraction}${exponent}`);
}
