import { describe, expect, it } from 'vitest';
import { DecimalJs40 as Decimal } from '../../src/numeric/decimal.js';
import type { TapeInput } from '../../src/index.js';
import { parsePriceSeries, priceAt, roundTrips, suggestRequest, topRoundTripWallets } from '../../src/import.js';

describe('parsePriceSeries', () => {
  it.each([
    [
      'GeckoTerminal JSON',
      '{"source":"x","hourly_close":[[3600,2],[0,1]]}',
      [
        [0, '1'],
        [3600, '2'],
      ],
    ],
    // Yahoo daily: the close at 00:00 UTC of its day; "null" rows skipped.
    [
      'Yahoo CSV',
      'Date,Open,High,Low,Close,Adj Close,Volume\n2024-03-10,1,1,1,3900.5,1,1\n2024-03-11,null,null,null,null,null,null\n',
      [[1_710_028_800, '3900.5']],
    ],
    [
      'unix and price lines',
      '100\t2.5\n200\t3\n',
      [
        [100, '2.5'],
        [200, '3'],
      ],
    ],
  ])('%s', (_name, text, expected) => {
    expect(parsePriceSeries(text, 'p').map(([t, p]) => [t, p.toString()])).toEqual(expected);
  });

  it('names the file and line of a form it does not know', () => {
    expect(() => parsePriceSeries('when,what\n', 'odd.csv')).toThrow(/odd\.csv: line 1: expected/);
  });

  it('priceAt gives the last point at or before t, null before the first', () => {
    const series = [
      [100, new Decimal(2)],
      [200, new Decimal(3)],
    ] as const;
    expect([99, 100, 150, 200, 999].map((t) => priceAt(series, t)?.toNumber() ?? null)).toEqual([null, 2, 2, 3, 3]);
  });
});

const s = (wallet: string, token: string, type: 'buy' | 'sell', time: number) => ({
  wallet,
  token,
  type,
  time,
  quantity: 1,
  usd_price: 1,
});

describe('round trips', () => {
  const tape: TapeInput = {
    network: 'eth',
    swaps: [
      // A: buy, buy, sell, sell on T → 1; buy, sell, buy, sell on U → 2. Total 3.
      s('0xA', 'T', 'buy', 1),
      s('0xA', 'T', 'buy', 2),
      s('0xA', 'T', 'sell', 3),
      s('0xa', 'T', 'sell', 4),
      s('0xA', 'U', 'buy', 5),
      s('0xA', 'U', 'sell', 6),
      s('0xA', 'U', 'buy', 7),
      s('0xA', 'U', 'sell', 8),
      // B: a sell before any buy does not count; then buy, sell → 1. C: the same → 1 (tie with B, by address).
      s('0xC', 'T', 'buy', 1),
      s('0xC', 'T', 'sell', 2),
      s('0xB', 'T', 'sell', 1),
      s('0xB', 'T', 'buy', 2),
      s('0xB', 'T', 'sell', 3),
      // D: only buys → none.
      s('0xD', 'T', 'buy', 1),
      // E: the sell comes first in the list but later in time → 1 (event order, not list order).
      s('0xE', 'T', 'sell', 9),
      s('0xE', 'T', 'buy', 8),
    ],
  };

  it('counts a sell after an unmatched buy of the same token, in event order; eth addresses by case-insensitive key', () => {
    expect(Object.fromEntries(roundTrips(tape))).toEqual({ '0xA': 3, '0xC': 1, '0xB': 1, '0xE': 1 });
  });

  it('ranks by round trips, ties by address', () => {
    expect(topRoundTripWallets(tape, 3)).toEqual([
      { wallet: '0xA', roundTrips: 3 },
      { wallet: '0xB', roundTrips: 1 },
      { wallet: '0xC', roundTrips: 1 },
    ]);
  });

  it('suggests a request over the tape’s whole date range', () => {
    const request = suggestRequest({ ...tape, swaps: tape.swaps.map((x) => ({ ...x, time: x.time * 86_400 })) }, 2);
    expect(request).toMatchObject({
      wallets: ['0xA', '0xB'],
      network: 'eth',
      from_date: '1970-01-02',
      to_date: '1970-01-10',
    });
    expect(suggestRequest({ network: 'sol', swaps: [s('A', 'T', 'buy', 1)] })).toBeNull();
  });
});
