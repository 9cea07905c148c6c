/**
 * Wallet indicators (4.2) by hand. The period scenario: wallet W's deals in token A, each
 * bought for 10 USD (10 tokens @ 1) and, but the newest, sold 60 s later:
 *   deal  opened        sold @  realized  volume (buy + sell)
 *   d7    NOW − 600     open    —         10     (A's last price 1.5: unrealized 15 − 10 = 5)
 *   d1    NOW − 1 h     1.1     +1        10 + 11
 *   d2    NOW − 13 h    0.8     −2        10 + 8
 *   d3    NOW − 2 d     1.3     +3        10 + 13
 *   d4    NOW − 10 d    1.4     +4        10 + 14
 *   d5    NOW − 40 d    1.5     +5        10 + 15
 *   d6    NOW − 400 d   1.6     +6        10 + 16
 */
import { describe, expect, it } from 'vitest';
import {
  buildAnalyticsIndex,
  walletIndicators,
  WalletIndicatorsResultSchema,
  type IndicatorMap,
} from '../../src/analytics.js';
import { A, buy, checked, DAY, FLAT, HOUR, M, near, sell, solTape, T0, W } from './support.js';

const NOW = T0 + 500 * DAY;

function periodTape() {
  const closed: [number, number][] = [
    [HOUR, 1.1],
    [13 * HOUR, 0.8],
    [2 * DAY, 1.3],
    [10 * DAY, 1.4],
    [40 * DAY, 1.5],
    [400 * DAY, 1.6],
  ];
  const swaps = closed
    .flatMap(([age, price]) => [buy(W, A, NOW - age, 10, 1), sell(W, A, NOW - age + 60, 10, price)])
    .concat([buy(W, A, NOW - 600, 10, 1), buy(M, A, NOW, 1, 1.5)]);
  return solTape(swaps);
}

const index = buildAnalyticsIndex(periodTape(), FLAT);

describe('indicators per period', () => {
  const map = checked(WalletIndicatorsResultSchema, walletIndicators(index, W, { network: 'sol' }))
    .indicators as IndicatorMap;

  it.each([
    // period, deals, realized, unrealized, investment, volume, winrate
    ['12h', 2, 1, 5, 20, 31, 100], // d1, d7: 1 of 1 closed won
    ['24h', 3, -1, 5, 30, 49, 50], // + d2
    ['7d', 4, 2, 5, 40, 72, (100 * 2) / 3], // + d3
    ['1m', 5, 6, 5, 50, 96, 75], // + d4
    ['1y', 6, 11, 5, 60, 121, 80], // + d5
    ['all', 7, 17, 5, 70, 147, (100 * 5) / 6], // + d6
  ] as const)('%s', (period, deals, realized, unrealized, investment, volume, winrate) => {
    const v = (key: keyof IndicatorMap) => map[key][period].initial;
    expect(v('deals_number')).toBe(deals);
    near(v('pnl_realized'), realized);
    near(v('pnl_unrealized'), unrealized);
    near(v('pnl_total'), realized + unrealized);
    near(v('investment_amount'), investment);
    near(v('trading_volume'), volume);
    near(v('roi_total'), (100 * (realized + unrealized)) / investment);
    near(v('roi_realized'), (100 * realized) / investment);
    near(v('winrate'), winrate);
    // Flat execution: the follower makes the same deals at the same prices.
    for (const key of Object.keys(map) as (keyof IndicatorMap)[])
      near(map[key][period].following, map[key][period].initial);
  });

  it('counts a deal opened exactly at the period start', () => {
    const at = (now: number) => {
      const tape = solTape([buy(W, A, T0, 1, 1), buy(M, A, now, 1, 1)]);
      return (walletIndicators(buildAnalyticsIndex(tape, { now }), W, { network: 'sol' }).indicators as IndicatorMap)
        .deals_number['12h'];
    };
    expect(at(T0 + 12 * HOUR)).toEqual({ initial: 1, following: 1 }); // opened at now − 12 h
    expect(at(T0 + 12 * HOUR + 1)).toEqual({ initial: 0, following: 0 });
  });

  it('gives zeros for an address without deals, and winrate 0 without closed deals', () => {
    const empty = walletIndicators(index, 'Nobody', { network: 'sol' }).indicators as IndicatorMap;
    expect(empty.pnl_total.all).toEqual({ initial: 0, following: 0 });
    expect(empty.winrate['24h']).toEqual({ initial: 0, following: 0 });
    const open = buildAnalyticsIndex(solTape([buy(W, A, T0, 1, 1)]));
    expect((walletIndicators(open, W, { network: 'sol' }).indicators as IndicatorMap).winrate.all.initial).toBe(0);
  });
});

describe('indicators over a custom range: flat map, recomputed', () => {
  const range = (q: Record<string, unknown>) =>
    checked(WalletIndicatorsResultSchema, walletIndicators(index, W, { network: 'sol', ...q })).indicators as Record<
      string,
      { initial: number; following: number | null }
    >;

  it.each([
    // from_time keeps d3 (opened exactly then), d2, d1, d7: realized 3 − 2 + 1 = 2
    [{ from_time: NOW - 2 * DAY }, { deals_number: 4, pnl_realized: 2, pnl_unrealized: 5, winrate: (100 * 2) / 3 }],
    // to_time before d7 opened: d3, d2, d1
    [
      { from_time: NOW - 2 * DAY, to_time: NOW - 700 },
      { deals_number: 3, pnl_realized: 2, pnl_unrealized: 0, winrate: (100 * 2) / 3 },
    ],
    // to_time between d1's buy and sell: d1 open at its buy price 1 → unrealized 0
    [
      { from_time: NOW - 2 * DAY, to_time: NOW - HOUR + 30 },
      { deals_number: 3, pnl_realized: 1, pnl_unrealized: 0, winrate: 50 },
    ],
    // to_time alone: everything up to it, all ages
    [{ to_time: String(NOW - 3 * DAY) }, { deals_number: 3, pnl_realized: 15, pnl_unrealized: 0, winrate: 100 }],
    // fractional times select whole seconds: from ⌈NOW − 2 d − 0.5⌉ keeps d3
    [
      { from_time: NOW - 2 * DAY - 0.5 },
      { deals_number: 4, pnl_realized: 2, pnl_unrealized: 5, winrate: (100 * 2) / 3 },
    ],
  ])('%j', (query, expected) => {
    const map = range(query);
    expect(Object.keys(map)).toEqual([
      'pnl_realized',
      'pnl_unrealized',
      'pnl_total',
      'roi_realized',
      'roi_total',
      'winrate',
      'deals_number',
      'trading_volume',
      'investment_amount',
    ]);
    for (const [key, value] of Object.entries(expected)) {
      near(map[key]!.initial, value);
      near(map[key]!.following, value);
    }
  });
});
