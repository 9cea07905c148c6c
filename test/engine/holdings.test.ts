/**
 * The leaders' holdings kept as exact counts (src/engine/holdings.ts): model section 2 (a buy
 * adds, a sell takes away and floors at 0), hand-computed, then held to the rule in decimals on
 * generated swaps whose counts pass 2^53, whose texts carry exponents or are numbers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExactHoldings, holdingsAfter } from '../../src/engine/holdings.js';
import { Decimal, type DecimalInput } from '../../src/numeric/decimal.js';

/** Moves one slot by each swap in turn; gives the holdings before each, then after the last. */
function walk(swaps: readonly [DecimalInput, boolean][]): string[] {
  const holdings = new ExactHoldings();
  const slot = holdings.addSlots(1);
  const out: string[] = [];
  for (const [quantity, buy] of swaps) {
    holdings.move(slot, quantity, buy);
    out.push(holdings.before().toString());
  }
  out.push(holdings.after(slot).toString());
  return out;
}

/** The same with the rule in decimals. */
function walkInDecimals(swaps: readonly [DecimalInput, boolean][]): string[] {
  let held = new Decimal(0);
  const out: string[] = [];
  for (const [quantity, buy] of swaps) {
    out.push(held.toString());
    held = holdingsAfter(held, new Decimal(quantity), buy);
  }
  out.push(held.toString());
  return out;
}

describe('exact holdings', () => {
  it('adds buys, takes sells away and floors at zero', () => {
    // 10.5 + 0.25 = 10.75; − 3 = 7.75; − 20 (more than held): 0; + 4e-3 = 0.004.
    expect(
      walk([
        ['10.5', true],
        ['0.25', true],
        ['3', false],
        ['20', false],
        ['4e-3', true],
      ]),
    ).toEqual(['0', '10.5', '10.75', '7.75', '0', '0.004']);
  });

  it('a sell of exactly the holdings leaves zero, and a sell from zero stays zero', () => {
    expect(
      walk([
        ['1.000001', true],
        ['1.000001', false],
        ['5', false],
      ]),
    ).toEqual(['0', '1.000001', '0', '0']);
  });

  it('keeps sums past 2^53 exact in decimals, and returns to counts at zero', () => {
    // 9007199254.740991 is 2^53 − 1 millionths: one more millionth passes 2^53.
    expect(
      walk([
        ['9007199254.740991', true],
        ['0.000001', true],
        ['0.000002', false],
        ['9007199254.74099', false],
        ['2', true],
      ]),
    ).toEqual(['0', '9007199254.740991', '9007199254.740992', '9007199254.74099', '0', '2']);
  });

  it('reads quantities with exponents, seventeen digits and numbers as the decimals do', () => {
    const swaps: [DecimalInput, boolean][] = [
      ['1.5E+3', true],
      ['12345678901234567', true],
      [0.1, true],
      ['2.5e-7', false],
    ];
    expect(walk(swaps)).toEqual(walkInDecimals(swaps));
    expect(walk(swaps)[3]).toBe('12345678901236067.1');
  });

  it('selected again at the same swap, a slot gives the same holdings before it', () => {
    const holdings = new ExactHoldings();
    const a = holdings.addSlots(2);
    holdings.move(a, '7', true);
    holdings.move(a + 1, '3', true);
    holdings.move(a, '2', false);
    holdings.move(a + 1, '1', true);
    holdings.select(a);
    expect(holdings.before().toString()).toBe('7');
    expect(holdings.after(a).toString()).toBe('5');
    expect(holdings.after(a + 1).toString()).toBe('4');
  });

  it('gives the values of the rule in decimals on any swaps', () => {
    const digits = fc.stringMatching(/^[1-9][0-9]{0,17}$/);
    const text = fc.oneof(
      fc
        .tuple(digits, fc.integer({ min: 0, max: 12 }))
        .map(([d, point]) =>
          point === 0 || point >= d.length ? d : `${d.slice(0, d.length - point)}.${d.slice(d.length - point)}`,
        ),
      fc.tuple(digits, fc.integer({ min: -30, max: 30 })).map(([d, e]) => `${d}e${e}`),
      fc.double({ min: 1e-9, max: 1e12, noNaN: true }).filter((x) => x > 0),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(text, fc.boolean()), { maxLength: 40 }), (swaps) => {
        expect(walk(swaps)).toEqual(walkInDecimals(swaps));
      }),
      { numRuns: 500, seed: 44 },
    );
  });
});
