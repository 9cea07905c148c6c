import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isPositiveDecimalString,
  isPositiveDecimalStringByDefinition,
  isPositiveDecimalText,
} from '../../src/numeric/decimal.js';

describe('isPositiveDecimalString: the tape decimal check', () => {
  it.each([
    ['2075630040', true],
    ['1.9873085e-7', true],
    ['+.5', true],
    ['5.', true],
    ['00012.5000', true],
    ['1E+3', true],
    ['1e60', true], // the upper bound itself
    ['1e-60', true], // the lower bound itself
    ['1e61', false],
    ['1e-61', false],
    ['0.0001e-56', true], // 1e-60 written another way
    ['0.0001e-57', false], // 1e-61
    ['99.9e58', true], // 9.99e59
    ['0', false],
    ['0.000', false],
    ['-1', false],
    ['.', false],
    ['', false],
    ['1e', false],
    ['1e+', false],
    ['1..2', false],
    ['1e5.5', false],
    [' 1', false],
    ['0x10', false],
    ['1e0000000000060', true], // a long exponent, decided by the definition
    ['1e0000000000061', false],
  ])('%s -> %s', (text, expected) => {
    expect(isPositiveDecimalString(text)).toBe(expected);
    expect(isPositiveDecimalStringByDefinition(text)).toBe(expected);
  });

  it('agrees with its definition (grammar, then range) on any string of decimal characters', () => {
    const chars = fc.constantFrom(...'0123456789.eE+-'.split(''));
    fc.assert(
      fc.property(fc.string({ unit: chars, maxLength: 12 }), (text) => {
        expect(isPositiveDecimalString(text)).toBe(isPositiveDecimalStringByDefinition(text));
      }),
      { numRuns: 20_000, seed: 11 },
    );
  });

  it('agrees with its definition near the range bounds, where the scan asks the parse', () => {
    const mantissa = fc.tuple(fc.integer({ min: 0, max: 99 }), fc.stringMatching(/^[0-9]{0,25}$/));
    fc.assert(
      fc.property(mantissa, fc.integer({ min: -66, max: 66 }), ([whole, fraction], exponent) => {
        const text = `${whole}.${fraction}e${exponent}`;
        expect(isPositiveDecimalString(text)).toBe(isPositiveDecimalStringByDefinition(text));
      }),
      { numRuns: 20_000, seed: 12 },
    );
  });

  it('checks a decimal inside a longer text as its slice (a column held as one text)', () => {
    const chars = fc.constantFrom(...'0123456789.eE+-'.split(''));
    const piece = fc.string({ unit: chars, maxLength: 10 });
    fc.assert(
      fc.property(piece, piece, piece, (before, text, after) => {
        const whole = before + text + after;
        expect(isPositiveDecimalText(whole, before.length, before.length + text.length)).toBe(
          isPositiveDecimalString(text),
        );
      }),
      { numRuns: 20_000, seed: 13 },
    );
    expect(isPositiveDecimalText('12.5e3x', 0, 6)).toBe(true);
    expect(isPositiveDecimalText('0012', 2, 4)).toBe(true);
    expect(isPositiveDecimalText('1e-1', 0, 3)).toBe(false); // "1e-"
  });
});
