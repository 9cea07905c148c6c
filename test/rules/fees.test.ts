/**
 * Model 1.1 and 3.3, fees of a follower trade:
 * - usd_network_fee = (base_fee_native + priority_fee + bribe) × native price at the trade's time,
 *   the native price being the last point with time ≤ t, or the first point's before it;
 *   an empty native price list is an input error only when a follower trade needs a fee;
 * - usd_bot_fee = usd_amount × bot_fee_percent / 100 when include_bot_fees, else 0.
 * Flat scenario: no slippage, base_fee_native 0.01 unless a case says otherwise.
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/model/errors.js';
import { simulate } from '../../src/simulate.js';
import {
  at,
  buy,
  FLAT_OPTIONS,
  LEADER_A,
  MARKET,
  near,
  nearAll,
  onlyDeal,
  request,
  run,
  sell,
  tape,
  TOKEN_X,
} from '../support/scenario.js';

describe('the native price at a trade’s time (model 1.1)', () => {
  const sorted: [number, number][] = [
    [at(1000), 100],
    [at(2000), 200],
  ];
  const unsorted: [number, number][] = [
    [at(2000), 200],
    [at(1000), 100],
  ];
  // fee = 0.01 native × native price
  const rows = [
    { time: 500, fee: 1 }, // before the first point (by time): its price 100
    { time: 1000, fee: 1 }, // at a point: that point
    { time: 1999, fee: 1 }, // last point ≤ t: 100
    { time: 2000, fee: 2 }, // 0.01 × 200
    { time: 5000, fee: 2 }, // after the last point: 200
  ];
  it.each([
    ...rows.map((r) => ({ ...r, order: 'sorted', native: sorted })),
    ...rows.map((r) => ({ ...r, order: 'unsorted', native: unsorted })),
  ])('a trade at +$time with points given $order pays $fee', ({ time, fee, native }) => {
    const trade = onlyDeal(run([buy(LEADER_A, TOKEN_X, at(time), 100, 1)], {}, FLAT_OPTIONS, { native_prices: native }))
      .trades[0]!;
    near(trade.usd_network_fee, fee, 'usd_network_fee');
  });
});

describe('a deal’s network fees over a moving native price (model 4)', () => {
  it('sums every trade’s fee, through runs of the same fee and changes back and forth', () => {
    // Native price 100, 300 from +2000, 100 again from +4000: fees 0.01 × price = 1, 3, 1.
    const native: [number, number][] = [
      [at(0), 100],
      [at(2000), 300],
      [at(4000), 100],
    ];
    // Dupe buys allowed; a buy of 10 USD at price 1 each time, then one sell of everything.
    const swaps = [
      buy(LEADER_A, TOKEN_X, at(100), 20, 1), // fee 1
      buy(LEADER_A, TOKEN_X, at(200), 20, 1), // fee 1
      buy(LEADER_A, TOKEN_X, at(2100), 20, 1), // fee 3
      buy(LEADER_A, TOKEN_X, at(2200), 20, 1), // fee 3
      buy(LEADER_A, TOKEN_X, at(2300), 20, 1), // fee 3
      buy(LEADER_A, TOKEN_X, at(4100), 20, 1), // fee 1
      sell(LEADER_A, TOKEN_X, at(4200), 120, 1), // fee 1, sells the whole lot at cost
    ];
    const response = run(
      swaps,
      { max_dupe_buy_times: 10, max_buy_amount: 10, max_position_amount: 1000 },
      FLAT_OPTIONS,
      { native_prices: native },
    );
    const deal = onlyDeal(response);
    expect(deal.trades.map((t) => t.usd_network_fee)).toEqual([1, 1, 3, 3, 3, 1, 1]);
    // 1 + 1 + 3 + 3 + 3 + 1 + 1 = 13; the sell gains nothing (sold at the average price 1).
    near(deal.usd_network_fee, 13, 'usd_network_fee');
    near(deal.pnl_realized, -13, 'pnl_realized');
    near(response.summary.network_fees, 13, 'summary.network_fees');
  });
});

describe('the network fee per transaction (model 3.3)', () => {
  it.each([
    // (0.01 + 0.02 + 0.03) × 100 = 6
    {
      name: 'base + priority_fee + bribe',
      network: 'sol' as const,
      req: { priority_fee: 0.02, bribe: 0.03 },
      options: FLAT_OPTIONS,
      native: 100,
      fee: 6,
    },
    // default sol base fee 0.000005 × 150 = 0.00075
    { name: 'the default sol base fee', network: 'sol' as const, req: {}, options: {}, native: 150, fee: 0.00075 },
    // default eth base fee 0.002 × 150 = 0.3
    { name: 'the default eth base fee', network: 'eth' as const, req: {}, options: {}, native: 150, fee: 0.3 },
    // base_fee_native.sol 0.5 × 100 = 50
    {
      name: 'a non-default base_fee_native',
      network: 'sol' as const,
      req: {},
      options: { base_fee_native: { sol: 0.5 } },
      native: 100,
      fee: 50,
    },
  ])('$name: $fee USD', ({ network, req, options, native, fee }) => {
    const leader = network === 'eth' ? '0xleader' : LEADER_A;
    const response = simulate(
      tape([buy(leader, TOKEN_X, at(100), 100, 1)], { network, native_prices: [[0, native]] }),
      request({ ...req, network, wallets: [leader] }),
      options,
    );
    near(onlyDeal(response).trades[0]!.usd_network_fee, fee, 'usd_network_fee');
    near(response.summary.network_fees, fee, 'summary.network_fees');
  });
});

describe('an empty native price list (model 1.1)', () => {
  it('is an input error when a follower trade needs its fee', () => {
    const call = () => run([buy(LEADER_A, TOKEN_X, at(100), 100, 1)], {}, FLAT_OPTIONS, { native_prices: [] });
    expect(call).toThrow(InputError);
    expect(call).toThrow(/native_prices/);
  });

  it('is fine when no follower trade happens', () => {
    // leader swaps only outside the window, market data inside: no trade, no fee needed
    const response = run(
      [buy(LEADER_A, TOKEN_X, at(-100), 100, 1), buy(MARKET, TOKEN_X, at(100), 100, 1)],
      {},
      FLAT_OPTIONS,
      { native_prices: [] },
    );
    expect(response.deals).toEqual([]);
    expect(response.summary.network_fees).toBe(0);
  });
});

describe('bot fees (model 3.3)', () => {
  // buy 1000 at p 1 (usd_amount 1000), sell all at p 2 (usd_amount 2000); network fees 1 + 1
  it.each([
    // 1000 × 1 % = 10, 2000 × 1 % = 20; pnl = (2000 − 1000) − 2 − 30 = 968
    { include: true, percent: undefined, buyFee: 10, sellFee: 20, pnl: 968 },
    // 2.5 %: 25 and 50; pnl = 1000 − 2 − 75 = 923
    { include: true, percent: 2.5, buyFee: 25, sellFee: 50, pnl: 923 },
    // off: 0 whatever the percent; pnl = 1000 − 2 = 998
    { include: false, percent: 2.5, buyFee: 0, sellFee: 0, pnl: 998 },
  ])('include_bot_fees $include, bot_fee_percent $percent', ({ include, percent, buyFee, sellFee, pnl }) => {
    const options = percent === undefined ? FLAT_OPTIONS : { ...FLAT_OPTIONS, bot_fee_percent: percent };
    const response = run(
      [buy(LEADER_A, TOKEN_X, at(100), 1000, 1), sell(LEADER_A, TOKEN_X, at(200), 1000, 2)],
      { include_bot_fees: include },
      options,
    );
    const deal = onlyDeal(response);
    near(deal.trades[0]!.usd_bot_fee, buyFee, 'buy bot fee');
    near(deal.trades[1]!.usd_bot_fee, sellFee, 'sell bot fee');
    nearAll(deal, { usd_bot_fee: buyFee + sellFee, usd_network_fee: 2, pnl_realized: pnl }, 'deal');
    nearAll(response.summary, { bot_fees: buyFee + sellFee, network_fees: 2, pnl_realized: pnl }, 'summary');
  });
});

describe('engine options as JSON carries them (model 1.3, 8)', () => {
  const trade = (options: unknown): number =>
    onlyDeal(
      run([buy(LEADER_A, TOKEN_X, at(100), 1000, 1)], { include_bot_fees: true }, options as typeof FLAT_OPTIONS),
    ).trades[0]!.usd_bot_fee;

  it('takes decimal strings as numbers: bot_fee_percent "2.5" on 1000 USD is 25', () => {
    expect(trade({ ...FLAT_OPTIONS, bot_fee_percent: '2.5' })).toBe(25);
  });

  it('keeps every digit of a decimal string: 0.1000000000000000000001 % of 1000 USD', () => {
    // 1000 × 0.1000000000000000000001 / 100 = 1.000000000000000000001, printed as the double 1.
    // As a JSON number the option would already be the double 0.1; the decimal is exact.
    const response = run([buy(LEADER_A, TOKEN_X, at(100), 1000, 1)], { include_bot_fees: true }, {
      ...FLAT_OPTIONS,
      bot_fee_percent: '0.1000000000000000000001',
    } as typeof FLAT_OPTIONS);
    expect(onlyDeal(response).trades[0]!.usd_bot_fee).toBe(1);
  });

  it('takes null as the default, like a missing name', () => {
    // Default 1 %: 10 USD. Default sol base fee 0.000005 × 100 = 0.0005 USD a trade.
    expect(trade({ ...FLAT_OPTIONS, bot_fee_percent: null })).toBe(10);
    const response = run([buy(LEADER_A, TOKEN_X, at(100), 1000, 1)], {}, {
      base_fee_native: null,
      unknown_liquidity_slippage_percent: null,
    } as unknown as typeof FLAT_OPTIONS);
    const fill = onlyDeal(response).trades[0]!;
    expect(fill.usd_network_fee).toBe(0.0005);
    expect(fill.slippage).toBe(1); // the default unknown_liquidity_slippage_percent
  });

  it.each([
    [{ bot_fee_percent: '-1' }, 'options.bot_fee_percent'],
    [{ bot_fee_percent: 'one' }, 'options.bot_fee_percent'],
    [{ base_fee_native: { sol: '1e999' } }, 'options.base_fee_native.sol'],
    [{ unknown_liquidity_slippage_percent: true }, 'options.unknown_liquidity_slippage_percent'],
  ])('refuses %j, naming %s', (options, path) => {
    expect(() => trade(options)).toThrow(InputError);
    expect(() => trade(options)).toThrow(path);
  });
});
