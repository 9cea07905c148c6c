/**
 * PnL (4.3) and investment amount (4.4) charts by hand, over the main scenario (support.ts):
 *   realized steps: +45 at T0 + 240, +75 at T0 + 300 (deal A)
 *   invested: A 100 at T0, 300 at T0 + 120, 225 at T0 + 240, 0 at T0 + 300; B 110 at T0 + 400
 * and the period scenario of indicators.test.ts for the period charts.
 */
import { describe, expect, it } from 'vitest';
import { ErrorBodySchema, RequestError } from '../../src/index.js';
import {
  buildAnalyticsIndex,
  walletIndicators,
  walletInvestmentChart,
  WalletInvestmentChartResultSchema,
  walletPnlChart,
  WalletPnlChartResultSchema,
} from '../../src/analytics.js';
import { A, buy, checked, DAY, FLAT, HOUR, M, mainTape, near, sell, solTape, T0, W } from './support.js';

const main = buildAnalyticsIndex(mainTape(), FLAT);

describe('charts over a custom range', () => {
  it('whole-minute points; cumulative realized PnL of the deals opened in the range', () => {
    const { chart } = checked(
      WalletPnlChartResultSchema,
      walletPnlChart(main, W, { network: 'sol', from_time: T0, to_time: T0 + 500 }),
    );
    expect(chart.timestamps).toEqual([0, 60, 120, 180, 240, 300, 360, 420, 480].map((s) => T0 + s));
    expect(chart.initial_values).toEqual([0, 0, 0, 0, 45, 120, 120, 120, 120]);
    // Flat execution: the follower realizes the same.
    expect(chart.following_values).toEqual([0, 0, 0, 0, 45, 120, 120, 120, 120]);
    expect(chart.period).toEqual({ start: T0, end: T0 + 500 });
  });

  it('investment: USD invested in the open deals at each point', () => {
    const { chart } = checked(
      WalletInvestmentChartResultSchema,
      walletInvestmentChart(main, W, { network: 'sol', from_time: String(T0), to_time: String(T0 + 500) }),
    );
    expect(chart.values).toEqual([100, 100, 300, 300, 225, 0, 0, 110, 110]);
  });

  it('leaves out the deals opened before from_time and the trades after to_time', () => {
    // From T0 + 1: only B (opened T0 + 400); first whole minute T0 + 60.
    const inv = walletInvestmentChart(main, W, { network: 'sol', from_time: T0 + 1, to_time: T0 + 500 }).chart;
    expect(inv.timestamps[0]).toBe(T0 + 60);
    expect(inv.values).toEqual([0, 0, 0, 0, 0, 0, 110, 110]);
    // Up to T0 + 250: the sell at T0 + 300 is not there.
    const pnl = walletPnlChart(main, W, { network: 'sol', from_time: T0, to_time: T0 + 250 }).chart;
    expect(pnl.initial_values).toEqual([0, 0, 0, 0, 45]);
  });

  it.each([
    // [range seconds, points, step]: at most 100 points, a whole number of minutes apart
    [0, 1, 0],
    [59 * 60, 60, 60],
    [99 * 60, 100, 60],
    [99 * 60 + 1, 50, 120], // 5941 s / 99 > 60 s → 2 min: 0, 120, …, 5880
    [30 * DAY, 99, 437 * 60], // ⌈43200 min / 99⌉ = 437 min; ⌊43200 / 437⌋ + 1 = 99 points
  ])('a range of %i s gives %i points', (seconds, points, step) => {
    const { timestamps } = walletPnlChart(main, W, { network: 'sol', from_time: T0, to_time: T0 + seconds }).chart;
    expect(timestamps.length).toBe(points);
    expect(timestamps.every((t) => t % 60 === 0)).toBe(true);
    if (points > 1) expect(timestamps[1]! - timestamps[0]!).toBe(step);
  });
});

describe('charts over a period', () => {
  // The period scenario: d2 bought NOW − 13 h, sold +60 s at −2; d1 bought NOW − 1 h, sold +60 s
  // at +1; d7 bought NOW − 600 s (10 USD each); older deals lie before 24 h.
  const NOW = T0 + 500 * DAY;
  const index = buildAnalyticsIndex(
    solTape([
      buy(W, A, NOW - 3 * DAY, 10, 1),
      sell(W, A, NOW - 3 * DAY + 60, 10, 1.5),
      buy(W, A, NOW - 13 * HOUR, 10, 1),
      sell(W, A, NOW - 13 * HOUR + 60, 10, 0.8),
      buy(W, A, NOW - HOUR, 10, 1),
      sell(W, A, NOW - HOUR + 60, 10, 1.1),
      buy(W, A, NOW - 600, 10, 1),
      buy(M, A, NOW, 1, 1.5),
    ]),
    FLAT,
  );

  it('24h: hourly points back from now; the last point is the period indicator', () => {
    const { chart } = checked(WalletPnlChartResultSchema, walletPnlChart(index, W, { network: 'sol', period: '24h' }));
    expect(chart.timestamps).toEqual(Array.from({ length: 25 }, (_, k) => NOW - (24 - k) * HOUR));
    expect(chart.period).toEqual({ start: NOW - DAY, end: NOW });
    // d2's sell at NOW − 13 h + 60 shows from the point NOW − 12 h (k = 12); d1's at the last.
    const expected = Array.from({ length: 25 }, (_, k) => (k < 12 ? 0 : k < 24 ? -2 : -1));
    chart.initial_values.forEach((v, k) => near(v, expected[k]!));
    const indicators = walletIndicators(index, W, { network: 'sol' }).indicators as {
      pnl_realized: Record<string, { initial: number }>;
    };
    near(chart.initial_values.at(-1), indicators.pnl_realized['24h']!.initial);
  });

  it('24h investment: 10 while each deal is held at a point', () => {
    const { chart } = walletInvestmentChart(index, W, { network: 'sol', period: '24h' });
    // d2 held at NOW − 13 h (k = 11), d1 at NOW − 1 h (k = 23), d7 at NOW (k = 24).
    expect(chart.values).toEqual(Array.from({ length: 25 }, (_, k) => (k === 11 || k >= 23 ? 10 : 0)));
  });

  it.each([
    ['12h', 25, 30 * 60],
    ['24h', 25, HOUR],
    ['7d', 29, 6 * HOUR],
    ['1m', 31, DAY],
    ['1y', 53, 7 * DAY], // 52 weeks fit in 365 days: the first point is NOW − 364 d
  ] as const)('%s: %i points, %i s apart, ending now', (period, points, step) => {
    const { chart } = walletInvestmentChart(index, W, { network: 'sol', period });
    expect(chart.timestamps.length).toBe(points);
    expect(chart.timestamps.at(-1)).toBe(NOW);
    expect(chart.timestamps[1]! - chart.timestamps[0]!).toBe(step);
  });

  it('gives zeros for an address without deals', () => {
    const { chart } = walletPnlChart(index, 'Nobody', { network: 'sol', period: '12h' });
    expect(new Set([...chart.initial_values, ...chart.following_values])).toEqual(new Set([0]));
  });
});

describe('chart query errors', () => {
  const body = (read: () => unknown) => {
    try {
      read();
    } catch (e) {
      expect(e).toBeInstanceOf(RequestError);
      return checked(ErrorBodySchema, (e as RequestError).body);
    }
    return expect.fail('no RequestError');
  };

  it.each([[{ network: 'sol' }], [{ network: 'sol', from_time: T0 }], [{ network: 'sol', to_time: T0 }]])(
    'period_required without period or a whole custom range: %j',
    (query) => {
      for (const read of [walletPnlChart, walletInvestmentChart]) {
        expect(body(() => read(main, W, query)).code).toBe('period_required');
      }
    },
  );

  it.each([
    [{ network: 'sol', period: '2d' }, 'period'],
    [{ network: 'sol', period: 'all' }, 'period'],
    [{ network: 'sol', period: '24h', from_time: T0, to_time: T0 + 1 }, 'period'],
    [{ network: 'sol', period: '24h', type: 'unrealized' }, 'type'],
  ])('validation_error: %j', (query, path) => {
    const b = body(() => walletPnlChart(main, W, query));
    expect(b).toMatchObject({ code: 'validation_error', detail: [{ path }] });
  });

  it('the investment chart has no type parameter', () => {
    const b = body(() => walletInvestmentChart(main, W, { network: 'sol', period: '24h', type: 'realized' }));
    expect(b).toEqual({ code: 'validation_error', detail: [{ path: 'type', message: 'unknown parameter' }] });
  });
});
