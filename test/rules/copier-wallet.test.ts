/**
 * Model 3.0 (copier-wallet.md): cash and reserve, max open deals, dropped transactions, the
 * slippage tolerance, retries, sandwiches, the draws, and the `copier` and `leaders` members.
 * Flat scenario: no slippage, network fee 1 USD a trade (base 0.01 × native 100, no priority fee:
 * a failed attempt pays the same 1 USD, as the bribe is 0).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Draws, mix, percentOf } from '../../src/engine/draws.js';
import { at, buy, LEADER_A, LEADER_B, MARKET, near, run, sell, TOKEN_X, TOKEN_Y } from '../support/scenario.js';

const strategy = (members: Record<string, unknown>) => ({ strategy: { report_skipped: true, ...members } });

describe('the draws (copier-wallet.md 6)', () => {
  it('is SplitMix64: mix(0) is its first output for seed 0', () => {
    expect(mix(0n)).toBe(0xe220a8397b1dcdafn);
  });

  it('compares draw < f / 100 exactly: 100 × mix < f × 2^64, as BigInt arithmetic says', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 0, max: 1 }),
        fc.oneof(fc.constantFrom(0, 5, 29.6, 50, 99.99, 100, 1e-7), fc.double({ min: 0, max: 100, noNaN: true })),
        (seed, i, k, c, f) => {
          const draws = new Draws(seed);
          const raw = mix(mix(BigInt(seed)) ^ BigInt(16 * i + 2 * k + c));
          expect(draws.raw(i, k, c)).toBe(raw);
          // f as the decimal it prints as: numerator / 10^scale
          const [mantissa, exponent = '0'] = String(f).split('e') as [string, string?];
          const [whole, fraction = ''] = mantissa.split('.') as [string, string?];
          let numerator = BigInt(whole + fraction);
          let scale = BigInt(fraction.length) - BigInt(exponent);
          if (scale < 0n) [numerator, scale] = [numerator * 10n ** -scale, 0n];
          expect(draws.below(i, k, c, percentOf(f))).toBe(100n * raw * 10n ** scale < numerator << 64n);
        },
      ),
      { numRuns: 2000, seed: 6 },
    );
  });

  it('draws 2^64 × draw exactly at the threshold: below a percent just above it, not just below', () => {
    const draws = new Draws(7);
    const raw = draws.raw(3, 1, 0);
    // raw / 2^64 as a percent with 12 decimals, rounded down and up
    const micro = (raw * 100n * 10n ** 12n) >> 64n;
    const down = Number(micro) / 1e12;
    const up = Number(micro + 1n) / 1e12;
    expect(draws.below(3, 1, 0, percentOf(up))).toBe(true);
    expect(draws.below(3, 1, 0, percentOf(down))).toBe(false);
  });
});

describe('cash (copier-wallet.md 2)', () => {
  it('skips a buy whose amount and fees exceed the cash above the reserve, and pays nothing for it', () => {
    // B 250, reserve 40: buy 200 → cash 250 − 200 − 1 = 49; free 9: a buy of 10 + 1 > 9 is skipped
    const response = run(
      [buy(LEADER_A, TOKEN_X, at(100), 200, 1), buy(LEADER_A, TOKEN_Y, at(200), 10, 1)],
      strategy({ starting_balance_usd: 250, reserve_usd: 40 }),
    );
    expect(response.deals).toHaveLength(1);
    expect(response.skipped_copies).toEqual([expect.objectContaining({ reason: 'insufficient_balance', type: 'buy' })]);
    const copier = response.copier!;
    near(copier.ending_cash, 49, 'ending_cash');
    near(copier.ending_equity, 49 + 200, 'ending_equity: 200 tokens at 1');
    near(copier.roi_on_balance, (100 * (249 - 250)) / 250, 'roi_on_balance');
    near(copier.capital_required, 201, 'capital_required: 200 + 1 fee');
    expect(copier.skipped_for_cash).toBe(1);
  });

  it('ending_equity − B = pnl_total − failed fees, and capital_required without a balance', () => {
    // no balance: cash from 0; buy 100 (−101), sell at 2 (+199): cash 98, most in use 101
    const response = run(
      [buy(LEADER_A, TOKEN_X, at(100), 100, 1), sell(LEADER_A, TOKEN_X, at(200), 100, 2)],
      strategy({ report_wallet: true }),
    );
    const copier = response.copier!;
    expect(copier.starting_balance).toBeNull();
    expect(copier.ending_cash).toBeNull();
    near(copier.capital_required, 101, 'capital_required');
    near(response.summary.pnl_total, 98, 'pnl_total = 200 − 100 − 2 fees');
    near(copier.max_drawdown, 1, 'equity 0 → −1 (the buy fee) → 98');
  });
});

describe('open deals (copier-wallet.md 3)', () => {
  it('skips a buy of a new token while max_open_deals are open, not one into an open deal', () => {
    const response = run(
      [
        buy(LEADER_A, TOKEN_X, at(100), 10, 1),
        buy(LEADER_A, TOKEN_Y, at(200), 10, 1),
        buy(LEADER_A, TOKEN_X, at(300), 10, 1),
      ],
      strategy({ max_open_deals: 1 }),
    );
    expect(response.deals).toHaveLength(1);
    expect(response.deals[0]!.trades).toHaveLength(2);
    expect(response.skipped_copies!.map((s) => s.reason)).toEqual(['max_open_deals']);
  });
});

describe('attempts, tolerance and retries (copier-wallet.md 4, 8)', () => {
  it('fails a copy filled past its tolerance, pays the failed fee and retries at the new quote', () => {
    // The worked example's sell: bought 200 at 1.00 (delay 5); market moves T to 1.10 at 304; the
    // leader sells all at 1.30 at 301 → the copy at 306 fills at 1.10 < 1.30 × 0.9 = 1.17: fails,
    // cash −1; the retry at 308 has quote 1.10 (bound 0.99) and lands at 1.10.
    const response = run(
      [
        buy(LEADER_A, TOKEN_X, at(100), 200, 1),
        sell(LEADER_A, TOKEN_X, at(301), 200, '1.3'),
        buy(MARKET, TOKEN_X, at(304), 1, '1.1'),
      ],
      strategy({
        starting_balance_usd: 250,
        copy_delay_seconds: 5,
        slippage_tolerance_percent: 10,
        retries: 1,
        retry_delay_seconds: 2,
      }),
    );
    const deal = response.deals[0]!;
    expect(deal.trades.map((t) => [t.type, t.time])).toEqual([
      ['buy', at(105)],
      ['sell', at(308)],
    ]);
    near(deal.trades[1]!.usd_price, 1.1, 'sold at the retry');
    const copier = response.copier!;
    expect(copier.failed_transactions).toBe(1);
    near(copier.failed_transaction_fees, 1, 'failed fee');
    // cash: 250 − 201 − 1 (failed) + 220 − 1 = 267; equity − B = pnl_total − failed fees
    near(copier.ending_cash, 267, 'ending_cash');
    near(copier.ending_equity! - 250, response.summary.pnl_total - copier.failed_transaction_fees, 'identity');
    expect(response.skipped_copies).toEqual([]);
  });

  it('abandons a copy after its last failed attempt with that attempt’s reason and time', () => {
    // fail everything: 99.99 % of attempts dropped (seeded, so fixed), no retries
    const response = run([buy(LEADER_A, TOKEN_X, at(100), 10, 1)], strategy({ failed_transaction_percent: 99.99 }));
    expect(response.deals).toHaveLength(0);
    expect(response.skipped_copies).toEqual([
      { time: at(100), wallet: LEADER_A, token: TOKEN_X, type: 'buy', reason: 'failed_transaction' },
    ]);
    expect(response.copier!.failed_transactions).toBe(1);
  });
});

describe('sandwiches (copier-wallet.md 5)', () => {
  it('fills a sandwiched buy at the tolerance’s worst price and counts its loss', () => {
    // every landed copy sandwiched: buy 100 at p = 1, x = 1, τ = 5 → w = 1.05,
    // quantity 100 / 1.05, loss (100 / 1 − 100 / 1.05) × 1 = 4.7619…
    const response = run(
      [buy(LEADER_A, TOKEN_X, at(100), 100, 1)],
      strategy({ slippage_tolerance_percent: 5, sandwich_percent: 100 }),
    );
    const trade = response.deals[0]!.trades[0]!;
    near(trade.usd_price, 1.05, 'usd_price');
    near(trade.quantity, 100 / 1.05, 'quantity');
    near(trade.slippage, 5, 'slippage 100 × (w − p) / p');
    near(response.copier!.sandwich_loss, 100 - 100 / 1.05, 'sandwich_loss');
    expect(response.copier!.sandwiched_trades).toBe(1);
  });
});

describe('leaders (copier-wallet.md 7)', () => {
  it('shares a deal’s result among the leaders whose lots it sold', () => {
    // A buys 100 at 1, B buys 100 at 1; the market moves to 2; the final time-fix sells 200 at 2:
    // each lot 100 × 2 − 100 basis − half of the 1 USD fee = 99.5, less its buy's 1 USD fee = 98.5
    const response = run(
      [
        buy(LEADER_A, TOKEN_X, at(100), 100, 1),
        buy(LEADER_B, TOKEN_X, at(200), 100, 1),
        buy(MARKET, TOKEN_X, at(300), 1, 2),
      ],
      { wallets: [LEADER_A, LEADER_B], inactivity_time_fix: { hours: 192 }, strategy: { report_leaders: true } },
    );
    expect(response.copier).toBeUndefined();
    const [a, b] = response.leaders!;
    expect(a).toMatchObject({ wallet: LEADER_A, copied_buys: 1, copied_sells: 0, skipped: 0 });
    near(a!.pnl_realized, 98.5, 'A');
    near(b!.pnl_realized, 98.5, 'B');
    near(a!.pnl_realized + b!.pnl_realized, response.summary.pnl_realized, 'the leaders sum to the summary');
    near(a!.roi_total, 98.5, 'roi_total = 100 × 98.5 / 100');
  });
});
