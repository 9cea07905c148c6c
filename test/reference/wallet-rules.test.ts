/**
 * Rules of the copier's wallet (../shared/spec/copier-wallet.md, model 3.0) on the reference model
 * itself: validation of the new `strategy` members, the draws of section 6 compared exactly, and
 * a few small scenarios whose cash, failures and retries can be read off by hand.
 */
import { describe, expect, it } from 'vitest';
import { D } from './decimal.js';
import { drawBelow, drawBits, mix } from './draws.js';
import { ReferenceRequestError, referenceSimulate } from './model.js';

type Json = Record<string, unknown>;

const DAY = Date.UTC(2024, 2, 10) / 1000; // 2024-03-10 00:00:00 UTC
const LEADER = 'Leader1111111111111111111111111111111111111';
const MARKET = 'Market3333333333333333333333333333333333333';
const TOKEN = 'TokenAAA1111111111111111111111111111111111';

function request(strategy: Json): Json {
  return {
    wallets: [LEADER],
    network: 'sol',
    from_date: '2024-03-10',
    to_date: '2024-03-10',
    buy_percentage: 100,
    max_buy_amount: 1000,
    max_position_amount: 5000,
    priority_fee: 0.002,
    bribe: 0.003,
    max_dupe_buy_times: 2,
    strategy,
  };
}

function swap(wallet: string, type: 'buy' | 'sell', second: number, quantity: number, usd_price: number): Json {
  return { wallet, token: TOKEN, type, time: DAY + second, quantity, usd_price, usd_liquidity: null };
}

/** Native price 100: a landed trade pays (0.005 + 0.002 + 0.003) × 100 = 1 USD, a failed attempt 0.7. */
function tape(swaps: Json[]): Json {
  return { network: 'sol', tokens: {}, native_prices: [[DAY, 100]], swaps };
}

/** No slippage without liquidity, base fee 0.005 SOL. */
const OPTIONS = { unknown_liquidity_slippage_percent: 0, base_fee_native: { sol: 0.005 } };

function paths(strategy: Json): string[] | null {
  try {
    referenceSimulate(tape([]), request(strategy));
    return null;
  } catch (e) {
    if (!(e instanceof ReferenceRequestError)) throw e;
    expect(e.body.code).toBe('validation_error');
    return (e.body.detail as Array<{ path: string }>).map((p) => p.path);
  }
}

describe('validation of the copier-wallet members (W-1)', () => {
  const broken: Array<[Json, string]> = [
    [{ starting_balance_usd: 0 }, 'strategy.starting_balance_usd'],
    [{ reserve_usd: -1, starting_balance_usd: 10 }, 'strategy.reserve_usd'],
    [{ reserve_usd: null }, 'strategy.reserve_usd'],
    [{ max_open_deals: 0 }, 'strategy.max_open_deals'],
    [{ max_open_deals: 10001 }, 'strategy.max_open_deals'],
    [{ max_open_deals: 2.5 }, 'strategy.max_open_deals'],
    [{ slippage_tolerance_percent: 0 }, 'strategy.slippage_tolerance_percent'],
    [{ slippage_tolerance_percent: 100 }, 'strategy.slippage_tolerance_percent'],
    [{ failed_transaction_percent: 100 }, 'strategy.failed_transaction_percent'],
    [{ failed_transaction_percent: null }, 'strategy.failed_transaction_percent'],
    [{ retries: 6 }, 'strategy.retries'],
    [{ retry_delay_seconds: 0 }, 'strategy.retry_delay_seconds'],
    [{ retry_delay_seconds: 3601 }, 'strategy.retry_delay_seconds'],
    [{ sandwich_percent: 100.5, slippage_tolerance_percent: 5 }, 'strategy.sandwich_percent'],
    [{ random_seed: 2 ** 53 }, 'strategy.random_seed'],
    [{ random_seed: -1 }, 'strategy.random_seed'],
    [{ report_wallet: null }, 'strategy.report_wallet'],
    [{ report_leaders: 1 }, 'strategy.report_leaders'],
    // the two rules across members
    [{ reserve_usd: 5 }, 'strategy.reserve_usd'],
    [{ sandwich_percent: 20 }, 'strategy.sandwich_percent'],
  ];
  for (const [strategy, path] of broken) {
    it(`${JSON.stringify(strategy)} -> ${path}`, () => {
      expect(paths(strategy)).toEqual([path]);
    });
  }

  it('accepts the bounds themselves', () => {
    const strategy = {
      starting_balance_usd: 0.01,
      reserve_usd: 0,
      max_open_deals: 10000,
      slippage_tolerance_percent: 99.9,
      failed_transaction_percent: 99.9,
      retries: 5,
      retry_delay_seconds: 3600,
      sandwich_percent: 100,
      random_seed: 2 ** 53 - 1,
      report_wallet: true,
      report_leaders: true,
    };
    expect(paths(strategy)).toBeNull();
    expect(paths({ reserve_usd: 0, sandwich_percent: 0, starting_balance_usd: null })).toBeNull();
  });
});

describe('the draws (W-6)', () => {
  it('mix is SplitMix64 (its first two outputs from state 0)', () => {
    expect(mix(0n).toString(16)).toBe('e220a8397b1dcdaf');
    expect(mix(0x9e3779b97f4a7c15n).toString(16)).toBe('6e789e6aa1b965f4');
  });

  it('compares exactly: a percent equal to 100 × draw is not above it, the next decimal is', () => {
    const bits = drawBits(318579939485721, 41, 2, 1);
    // 100 × bits / 2^64 has a finite decimal expansion: 100 × bits × 5^64 / 10^64
    const digits = (100n * bits * 5n ** 64n).toString().padStart(65, '0');
    const exact = new D(`${digits.slice(0, -64)}.${digits.slice(-64)}`);
    expect(drawBelow(318579939485721, 41, 2, 1, exact)).toBe(false);
    expect(drawBelow(318579939485721, 41, 2, 1, exact.plus('1e-70'))).toBe(true);
    expect(drawBelow(0, 0, 0, 0, new D(0))).toBe(false);
  });
});

describe('small scenarios of the copier wallet', () => {
  it('W-2: cash after a buy and a sell, and ending_equity − B = pnl_total − failed fees', () => {
    const t = tape([swap(LEADER, 'buy', 100, 100, 1), swap(LEADER, 'sell', 200, 100, 2)]);
    const body = referenceSimulate(t, request({ starting_balance_usd: 250 }), OPTIONS) as Json;
    const copier = body['copier'] as Json;
    // buy 100 USD + 1 fee; sell 100 tokens at 2 = 200 − 1 fee: 250 − 101 + 199
    expect(copier['ending_cash']).toBe(348);
    expect(copier['ending_equity']).toBe(348);
    expect(copier['capital_required']).toBe(101);
    expect(copier['max_drawdown']).toBe(1); // E: 250, 249, 348
    expect((body['summary'] as Json)['pnl_total']).toBe(98);
  });

  it('W-4: a retry due after window_end is listed after_window; the leader counts it skipped', () => {
    // tolerance 10 %, a delay of 10 s: at 86385 the market moved to 1.2, so the copy at 86390
    // fills at 1.2 > 1.1 and fails; its retry would be due at 86420, after 23:59:59
    const t = tape([swap(LEADER, 'buy', 86380, 100, 1), swap(MARKET, 'buy', 86385, 1, 1.2)]);
    const strategy = {
      copy_delay_seconds: 10,
      slippage_tolerance_percent: 10,
      retries: 1,
      retry_delay_seconds: 30,
      report_skipped: true,
      report_leaders: true,
    };
    const body = referenceSimulate(t, request(strategy), OPTIONS) as Json;
    expect(body['skipped_copies']).toEqual([
      { time: DAY + 86420, wallet: LEADER, token: TOKEN, type: 'buy', reason: 'after_window' },
    ]);
    const [leader] = body['leaders'] as Json[];
    expect(leader!['skipped']).toBe(1);
    expect(leader!['failed_transaction_fees']).toBeCloseTo(0.7, 12);
    expect((body['copier'] as Json)['failed_transactions']).toBe(1);
    expect(Object.keys(body).slice(-3)).toEqual(['skipped_copies', 'leaders', 'copier']);
  });
});
