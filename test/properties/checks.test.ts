/**
 * The checks themselves: they pass on a hand-computed run, and each one catches a response
 * broken in the way it guards against (a check that cannot fail would prove nothing).
 */
import { describe, expect, it } from 'vitest';
import type { SimulatorResponse } from '../../src/index.js';
import { WINDOW_START, type Scenario } from '../support/arbitraries.js';
import { ALL_CHECKS, checkAll, type Run } from './checks.js';
import { runScenario } from './run.js';

const t0 = WINDOW_START;
/**
 * One leader L: buys 10 T at $2 (t0+1h) and sells 10 T at $3 (t0+2h); buys 4 U at $5
 * (t0+1h30); a market wallet sells U at $6 (t0+2h30). Copying 50 %, no slippage
 * (unknown liquidity, 0 %), network fee 0.00001 SOL × $100 = $0.001 a trade, bot fee 1 %.
 */
const base: Scenario = {
  tape: {
    network: 'sol',
    native_prices: [[t0, 100]],
    swaps: [
      { wallet: 'L', token: 'T', type: 'buy', time: t0 + 3_600, quantity: 10, usd_price: 2 },
      { wallet: 'L', token: 'U', type: 'buy', time: t0 + 5_400, quantity: 4, usd_price: 5 },
      { wallet: 'L', token: 'T', type: 'sell', time: t0 + 7_200, quantity: 10, usd_price: 3 },
      { wallet: 'M', token: 'U', type: 'sell', time: t0 + 9_000, quantity: 1, usd_price: 6 },
    ],
  },
  request: {
    wallets: ['L'],
    network: 'sol',
    from_date: '2024-03-10',
    to_date: '2024-03-10',
    buy_percentage: 50,
    max_buy_amount: 100,
    max_position_amount: 1_000,
    priority_fee: 0,
    bribe: 0,
    max_dupe_buy_times: 1,
    include_bot_fees: true,
  },
  options: { bot_fee_percent: 1, unknown_liquidity_slippage_percent: 0, base_fee_native: { sol: 0.00001 } },
};

describe('the checks on a hand-computed run', () => {
  const run = runScenario(base);

  it('computes the hand-made numbers', () => {
    const [t, u] = run.response.deals;
    // T: buy $10 → 5 T at $2; sell 5 T at $3 = $15. Realized (15 − 5 × 2) − fees (0.001 + 0.1) − (0.001 + 0.15) = 4.748.
    expect(t!.pnl_total).toBeCloseTo(4.748, 12);
    expect(t!.status).toBe('closed');
    // U: buy $10 → 2 U at $5, fees 0.101; valued at $6 at the end: unrealized 2 × 6 − 10 = 2.
    expect(u!.pnl_realized).toBeCloseTo(-0.101, 12);
    expect(u!.pnl_unrealized).toBeCloseTo(2, 12);
    // Summary: realized 4.748 − 0.101 = 4.647, total 6.647; the chart's last point still values U at $5.
    expect(run.response.summary.pnl_total).toBeCloseTo(6.647, 12);
    expect(run.response.cumulative_pnl_and_fee_chart.pnl_unrealized.at(-1)).toBe(0);
  });

  it('finds no problem', () => {
    expect(checkAll(run)).toEqual([]);
  });

  type Mutation = [keyof typeof ALL_CHECKS, string, (r: SimulatorResponse) => void];
  const mutations: Mutation[] = [
    ['checkSums', 'a deal total that is not realized + unrealized', (r) => void (r.deals[0]!.pnl_total += 1)],
    ['checkSums', 'summary bot fees off the deals', (r) => void (r.summary.bot_fees += 0.01)],
    [
      'checkLastPoint',
      'last chart realized off the summary',
      (r) => void (r.cumulative_pnl_and_fee_chart.pnl_realized[2]! += 1),
    ],
    [
      'checkLastPoint',
      'open deals chart off by more than rounding',
      (r) => void (r.cumulative_usd_open_deals_chart.values[0]! += 5),
    ],
    ['checkDealStatus', 'a closed deal not fully sold', (r) => void (r.deals[0]!.closed_position = 50)],
    [
      'checkDealStatus',
      'a closed deal whose cash flows do not add up',
      (r) => void (r.deals[0]!.trades[1]!.usd_amount! += 1),
    ],
    ['checkDealStatus', 'an open deal sold past 100 %', (r) => void (r.deals[1]!.closed_position = 120)],
    [
      'checkDealStatus',
      'an open deal fully sold with nothing held',
      (r) => {
        r.deals[1]!.closed_position = 100;
        r.deals[1]!.trades[0]!.usd_invested = 0;
      },
    ],
    ['checkCaps', 'a buy above max_buy_amount', (r) => void (r.deals[0]!.trades[0]!.usd_amount = 101)],
    [
      'checkCaps',
      'too many buys',
      (r) => void r.deals[0]!.trades.unshift({ ...r.deals[0]!.trades[0]! }, { ...r.deals[0]!.trades[0]! }),
    ],
    [
      'checkSettings',
      'a time-fix sell without inactivity_time_fix',
      (r) => void (r.deals[0]!.trades[1]!.type = 'sell_timefix'),
    ],
    ['checkSettings', 'a trade outside the window', (r) => void (r.deals[1]!.trades[0]!.time = t0 - 1)],
    ['checkFees', 'a wrong network fee', (r) => void (r.deals[0]!.trades[0]!.usd_network_fee = 0.002)],
    ['checkFees', 'a fee sum going down', (r) => void (r.cumulative_pnl_and_fee_chart.fee_sum[1] = 0)],
    ['checkCharts', 'a point naming the wrong deal', (r) => void (r.cumulative_pnl_and_fee_chart.deal_indexes[0] = 1)],
    ['checkCharts', 'a point missing', (r) => void r.cumulative_pnl_and_fee_chart.timestamps.pop()],
  ];

  it.each(mutations)('%s catches %s', (check, _what, mutate) => {
    const response = structuredClone(run.response);
    mutate(response);
    const broken: Run = { ...run, response };
    expect(ALL_CHECKS[check](broken).length).toBeGreaterThan(0);
  });
});
