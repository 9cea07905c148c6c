/**
 * The quick tape validation (src/engine/tape-check.ts) must accept exactly what the zod schema
 * accepts, and leave every error message to the schema.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTape, SwapSchema } from '../../src/model/tape.js';
import { isValidSwap, validateTape } from '../../src/engine/tape-check.js';
import { inputErrorOf } from '../support/errors.js';

/** Values that sit on the edges of every swap field's rule, valid and not. */
const edgeValue = fc.constantFrom<unknown>(
  undefined,
  null,
  true,
  0,
  -0,
  1,
  -1,
  0.5,
  1e-300,
  1e300,
  NaN,
  Infinity,
  -Infinity,
  2 ** 53,
  2 ** 53 - 1,
  1.5,
  1e-60,
  1e60,
  9.99e-61,
  1.01e60,
  5e-324,
  1e11 - 1,
  1e11,
  1_710_064_800_000,
  '',
  'x',
  'buy',
  'sell',
  'Buy',
  '0',
  '1',
  '-1',
  '+1',
  '0.0',
  '.5',
  '5.',
  '.',
  '1e5',
  '1E-5',
  '1e',
  '1e+',
  '0e5',
  ' 1',
  '1 ',
  '00.10',
  '1.2.3',
  '0x10',
  'Infinity',
  'NaN',
  '1e-60',
  '1e60',
  '1e-61',
  '1e61',
  '2e400',
  [],
  {},
  [1],
  { value: 1 },
);

const swapLike = fc.record(
  {
    wallet: fc.oneof(fc.constantFrom('W1', ''), edgeValue),
    token: fc.oneof(fc.constantFrom('T1', ''), edgeValue),
    type: fc.oneof(fc.constantFrom('buy', 'sell'), edgeValue),
    time: fc.oneof(fc.integer({ min: 0, max: 2_000_000_000 }), edgeValue),
    quantity: fc.oneof(fc.double(), fc.constantFrom('12.5', '1e-9'), edgeValue),
    usd_price: fc.oneof(fc.double(), fc.constantFrom('0.0123', '2'), edgeValue),
    usd_amount: fc.oneof(fc.double(), edgeValue),
    usd_liquidity: fc.oneof(fc.double(), edgeValue),
    transaction_hash: fc.oneof(fc.string(), edgeValue),
    extra_field: edgeValue,
  },
  { requiredKeys: [] },
);

describe('isValidSwap accepts exactly what SwapSchema accepts', () => {
  it('on generated swap-like values (edges of every field, fields missing or extra)', () => {
    fc.assert(
      fc.property(fc.oneof(swapLike, edgeValue), (value) => {
        expect(isValidSwap(value)).toBe(SwapSchema.safeParse(value).success);
      }),
      { numRuns: 5000 },
    );
  });

  it('on a valid swap with each field replaced by each edge value', () => {
    const valid = {
      wallet: 'W',
      token: 'T',
      type: 'buy',
      time: 1,
      quantity: '2',
      usd_price: 0.5,
      usd_amount: 1,
      usd_liquidity: null,
    };
    let accepted = 0;
    for (const field of [...Object.keys(valid), 'transaction_hash']) {
      fc.assert(
        fc.property(edgeValue, (edge) => {
          const swap = { ...valid, [field]: edge };
          const ok = SwapSchema.safeParse(swap).success;
          if (ok) accepted++;
          expect(isValidSwap(swap)).toBe(ok);
        }),
        { numRuns: 200 },
      );
    }
    expect(accepted).toBeGreaterThan(0); // both sides see valid swaps too, not only rejections
  });
});

describe('validateTape', () => {
  const swap = { wallet: 'W', token: 'T', type: 'buy', time: 5, quantity: 1, usd_price: 2 };

  it.each([
    ['not an object', 42],
    ['swaps missing', { network: 'sol' }],
    ['bad network', { network: 'btc', swaps: [] }],
    ['bad native point', { network: 'sol', native_prices: [[1, 0]], swaps: [swap] }],
    ['bad token meta', { network: 'sol', tokens: { T: { name: 5 } }, swaps: [swap] }],
    ['a bad swap in the middle', { network: 'sol', swaps: [swap, swap, { ...swap, usd_price: '-1' }, swap] }],
    [
      'two bad swaps',
      {
        network: 'sol',
        swaps: [
          { ...swap, time: 1.5 },
          { ...swap, type: 'hold' },
        ],
      },
    ],
  ])('gives the schema’s own error: %s', (_name, input) => {
    const quick = inputErrorOf(() => validateTape(input));
    const schema = inputErrorOf(() => parseTape(input));
    expect(quick.message).toBe(schema.message);
    expect(quick.location).toEqual(schema.location);
  });

  it('names the swap index and field of a bad swap', () => {
    const e = inputErrorOf(() => validateTape({ network: 'sol', swaps: [swap, swap, { ...swap, usd_price: '-1' }] }));
    expect(e.location.swapIndex).toBe(2);
    expect(e.message).toMatch(/swap 2: swaps\[2\]\.usd_price/);
  });

  it('accepts a valid tape as the schema does, keeping the swaps as given', () => {
    const input = { network: 'eth', swaps: [swap, { ...swap, usd_liquidity: null, transaction_hash: '0x1' }] };
    const quick = validateTape(input);
    const schema = parseTape(input);
    expect(quick).toEqual({ ...schema, swaps: input.swaps });
    expect(quick.swaps[0]).toBe(input.swaps[0]); // no copy of a million swaps
    expect(quick.tokens).toEqual({}); // defaults applied as the schema does
    expect(quick.native_prices).toEqual([]);
  });
});

describe('a swap time in milliseconds (model 1.1: time < 10¹¹)', () => {
  const swap = (time: number) => ({ wallet: 'W', token: 'T', type: 'buy', time, quantity: '2', usd_price: 0.5 });

  it.each([
    [99_999_999_999, true], // the last second below 10¹¹ (the year 5138)
    [100_000_000_000, false],
    [1_710_064_800_000, false], // 2024-03-10T10:00:00Z in milliseconds
  ])('time %i accepted: %s, by the schema and the quick check alike', (time, ok) => {
    expect(SwapSchema.safeParse(swap(time)).success).toBe(ok);
    expect(isValidSwap(swap(time))).toBe(ok);
  });

  it('is an input error that says it looks like milliseconds and how to fix it', () => {
    const error = inputErrorOf(() => validateTape({ network: 'sol', swaps: [swap(1), swap(1_710_064_800_000)] }));
    expect(error.message).toBe(
      'tape: swap 1: swaps[1].time: expected seconds since the epoch (below 10¹¹, the year 5138); 1710064800000 looks like milliseconds: divide the times by 1000',
    );
    expect(error.location).toMatchObject({ source: 'tape', swapIndex: 1 });
  });
});
