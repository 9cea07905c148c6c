/** Analytics options: now, copy settings, engine options; eth addresses. */
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/index.js';
import {
  buildAnalyticsIndex,
  DEFAULT_COPY_SETTINGS,
  listWallets,
  walletDeals,
  walletIndicators,
  type IndicatorMap,
} from '../../src/analytics.js';
import { A, buy, FLAT, mainTape, near, sell, solTape, T0, W } from './support.js';

describe('analytics options', () => {
  it('has documented default copy settings', () => {
    expect(DEFAULT_COPY_SETTINGS).toEqual({
      buy_percentage: 100,
      max_buy_amount: 1000,
      max_position_amount: 5000,
      priority_fee: 0,
      bribe: 0,
      max_dupe_buy_times: 3,
      include_bot_fees: true,
    });
  });

  it.each([
    [{ now: -1 }, 'analytics options: now'],
    [{ now: 1.5 }, 'analytics options: now'],
    [{ copySettings: { buy_percentage: 0 } }, 'analytics options: copySettings.buy_percentage'],
    [{ copySettings: { close_all: true } }, 'analytics options: copySettings'], // fixed off
    [{ engineOptions: { bot_fee_percent: -1 } }, 'options.bot_fee_percent'],
  ])('%j is an input error', (options, message) => {
    expect(() => buildAnalyticsIndex(mainTape(), options as never)).toThrow(InputError);
    expect(() => buildAnalyticsIndex(mainTape(), options as never)).toThrow(message);
  });

  it('copy settings shape the follower: 50 % of each buy, capped at 60 USD', () => {
    const tape = solTape([buy(W, A, T0, 100, 1), sell(W, A, T0 + 60, 100, 2)]);
    const index = buildAnalyticsIndex(tape, {
      ...FLAT,
      copySettings: { include_bot_fees: false, buy_percentage: 50, max_buy_amount: 60 },
    });
    const map = walletIndicators(index, W, { network: 'sol' }).indicators as IndicatorMap;
    // min(100 × 50 %, 60) = 50 USD → 50 tokens @ 1, sold @ 2: 100 − 50 = 50.
    expect(map.investment_amount.all).toEqual({ initial: 100, following: 50 });
    expect(map.pnl_realized.all).toEqual({ initial: 100, following: 50 });
  });

  it('leaves out every swap after now: as trades and as prices', () => {
    // Now T0 + 30: A bought at 1 and still held; the sell and its price 2 come later.
    const tape = solTape([buy(W, A, T0, 100, 1), sell(W, A, T0 + 60, 100, 2)]);
    const index = buildAnalyticsIndex(tape, { ...FLAT, now: T0 + 30 });
    const [deal] = walletDeals(index, W, { network: 'sol' }).deals;
    expect([deal!.status.initial, deal!.pnl_total.initial, deal!.status.following, deal!.trades.length]).toEqual([
      'open',
      0,
      'open',
      2,
    ]);
    expect(buildAnalyticsIndex(tape, { now: T0 - 1 }).wallet(W)).toBeUndefined();
  });
});

describe('eth addresses compare case-insensitively', () => {
  const wallet = '0xAbCdef0000000000000000000000000000000001';
  const token = '0xToKeN0000000000000000000000000000000002';
  const index = buildAnalyticsIndex(
    {
      network: 'eth',
      native_prices: [[0, 3000]],
      swaps: [
        buy(wallet, token, T0, 10, 1),
        sell(wallet.toLowerCase(), token.toUpperCase().replace('0X', '0x'), T0 + 60, 10, 1.5),
      ],
    },
    FLAT,
  );

  it('finds the wallet in any case and keeps one deal across spellings', () => {
    const [deal] = walletDeals(index, wallet.toUpperCase().replace('0X', '0x'), { network: 'eth' }).deals;
    expect([deal!.status.initial, deal!.trades_number.initial, deal!.token.address]).toEqual(['closed', 2, token]);
    near(deal!.pnl_realized.initial, 5); // 10 × 1.5 − 10
    near(deal!.pnl_realized.following, 5);
  });

  it('lists the wallet as its first swap spells it', () => {
    expect(listWallets(index, { network: 'eth' }).wallets.map((w) => w.address)).toEqual([wallet]);
  });
});
