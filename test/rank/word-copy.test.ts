/**
 * Rank rows in bounded double words (`src/rank/word-copy.ts`): every row the double words decide
 * is the exact engine's row, figure for figure, and a wallet they leave undecided is copied
 * exactly.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EngineOptionsInput, SimulatorRequestInput, TapeInput } from '../../src/index.js';
import { suggestRequest } from '../../src/import.js';
import { indexTape } from '../../src/engine/tape-index.js';
import { candidateWallets, copyWallets, rankContext, rankRequest } from '../../src/rank/rank.js';
import { wordCopyApplies, wordCopyOf } from '../../src/rank/word-copy.js';
import { prepare } from '../../src/simulate.js';
import { scenarioArb } from '../support/arbitraries.js';
import { present, REAL_DATA_DIR } from '../support/paths.js';
import { REAL_TAPES } from '../support/real-tapes.js';
import { at, buy, FREE_OPTIONS, LEADER_A, request, sell, tape, TOKEN_X } from '../support/scenario.js';

/** Every wallet of the tape: its exact row, and the copy in double words. */
function exactAndInWords(t: TapeInput, r: SimulatorRequestInput, options: EngineOptionsInput, balance?: number) {
  const { parsed, engineOptions } = prepare(rankRequest(r, balance), options);
  const context = rankContext(indexTape(t), parsed, engineOptions);
  const candidates = candidateWallets(context, undefined);
  return {
    context,
    candidates,
    exact: copyWallets(context, candidates, undefined, undefined, false),
    words: wordCopyOf(context),
  };
}

/** Checks each decided row against the exact one; returns how many were decided. */
function decidedRowsAreExact(
  t: TapeInput,
  r: SimulatorRequestInput,
  options: EngineOptionsInput,
  balance?: number,
): number {
  const { candidates, exact, words, context } = exactAndInWords(t, r, options, balance);
  let decided = 0;
  candidates.forEach(({ id }, k) => {
    const own = words.own(id);
    if (own !== null) expect(own).toEqual(exact[k]!.own);
    const row = words.row(id);
    if (row === null) return;
    decided++;
    const { wallet: _wallet, own: _own, ...figures } = exact[k]!;
    // The same members in the same order: the rows print byte for byte alike.
    expect(JSON.stringify(row)).toBe(JSON.stringify(figures));
  });
  // And a rank's own copy, which takes the decided rows and copies the others exactly.
  expect(JSON.stringify(copyWallets(context, candidates))).toBe(JSON.stringify(exact));
  return decided;
}

describe('a row in double words is the exact row', () => {
  it('by hand: a buy at 10 and a sell at 12 with 1 % slippage each way', () => {
    // The copier buys 50 USD at 10 × 1.01, 50 / 10.1 tokens, and sells them at 12 / 1.01:
    // 600 / 10.201 − 50 = 8.8177629644152… USD. Its cash falls to −50 (capital_required 50);
    // its equity after the buy is −50 + 10 × 50 / 10.1 = −0.4950495049504950…, its drawdown.
    const t = tape([buy(LEADER_A, TOKEN_X, at(1), 10, 10), sell(LEADER_A, TOKEN_X, at(2), 10, 12)]);
    const r = request({ wallets: [LEADER_A], buy_percentage: 50 });
    const options = { ...FREE_OPTIONS, unknown_liquidity_slippage_percent: 1 };
    const { candidates, words, exact } = exactAndInWords(t, r, options);
    const row = words.row(candidates[0]!.id)!;
    expect(row.summary.pnl_total).toBe(8.817762964415253);
    expect(row.summary.roi_total).toBe(17.635525928830506);
    expect(row.summary.trading_volume).toBe(108.81776296441525);
    expect(row.winrate).toBe(100);
    expect(row.profit_factor).toBeNull();
    expect(row.copier.capital_required).toBe(50);
    expect(row.copier.max_drawdown).toBe(0.49504950495049505);
    const { wallet: _wallet, own: _own, ...figures } = exact[0]!;
    expect(row).toEqual(figures);
  });

  it('on generated tapes', () => {
    let decided = 0;
    fc.assert(
      fc.property(scenarioArb({}, 60), (s) => {
        decided += decidedRowsAreExact(s.tape, s.request, s.options);
      }),
      { numRuns: 300 },
    );
    // Most wallets are decided; ties to the last digit (generated tapes have many) are not.
    expect(decided).toBeGreaterThan(100);
  });

  it('on generated tapes with an assumed liquidity for the swaps that carry none', () => {
    fc.assert(
      fc.property(scenarioArb({}, 40), fc.constantFrom(500, 20_000), (s, assumed) => {
        decidedRowsAreExact(s.tape, s.request, { ...s.options, assumed_liquidity_usd: assumed });
      }),
      { numRuns: 100 },
    );
  });

  it('a wallet the double words cannot decide is copied exactly', () => {
    // A buy and a sell at the same price without fees or slippage: the deal's PnL is exactly 0,
    // which double words cannot tell from a tiny gain or loss (the win rate needs its sign).
    const t = tape([buy(LEADER_A, TOKEN_X, at(1), 10, 10), sell(LEADER_A, TOKEN_X, at(2), 10, 10)]);
    const r = request({ wallets: [LEADER_A], buy_percentage: 50 });
    const { candidates, words, exact, context } = exactAndInWords(t, r, FREE_OPTIONS);
    expect(words.row(candidates[0]!.id)).toBeNull();
    expect(exact[0]!.summary.pnl_total).toBe(0);
    expect(exact[0]!.winrate).toBe(0);
    expect(copyWallets(context, candidates)).toEqual(exact);
  });

  it('a tape without the native prices a fee needs fails as the exact copy fails, with its message', () => {
    const t = tape([buy(LEADER_A, TOKEN_X, at(1), 10, 10), sell(LEADER_A, TOKEN_X, at(2), 10, 12)], {
      native_prices: [],
    });
    const r = request({ wallets: [LEADER_A], buy_percentage: 50 });
    const { parsed, engineOptions } = prepare(rankRequest(r, undefined), { base_fee_native: { sol: 0.01, eth: 0.01 } });
    const context = rankContext(indexTape(t), parsed, engineOptions);
    const candidates = candidateWallets(context, undefined);
    expect(wordCopyOf(context).row(candidates[0]!.id)).toBeNull();
    let message = '';
    try {
      copyWallets(context, candidates, undefined, undefined, false);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/native_prices is empty/);
    expect(() => copyWallets(context, candidates)).toThrow(message);
  });

  it('by hand, with a starting balance: the ending cash and equity, the ROI on it, the fall in percent', () => {
    // The copy above with 1,000 USD: the cash ends at 1,000 + 8.8177629644152… (no deal left
    // open, so the equity too), the ROI on the balance is 0.88177…%, and the equity's fall after
    // the buy, 0.4950495…, is 0.04950495…% of the peak, the balance.
    const t = tape([buy(LEADER_A, TOKEN_X, at(1), 10, 10), sell(LEADER_A, TOKEN_X, at(2), 10, 12)]);
    const r = request({ wallets: [LEADER_A], buy_percentage: 50 });
    const options = { ...FREE_OPTIONS, unknown_liquidity_slippage_percent: 1 };
    const { candidates, words, exact } = exactAndInWords(t, r, options, 1_000);
    const row = words.row(candidates[0]!.id)!;
    expect(row.copier).toEqual({
      starting_balance: 1000,
      ending_cash: 1008.8177629644152,
      ending_equity: 1008.8177629644152,
      roi_on_balance: 0.8817762964415253,
      capital_required: 50,
      max_drawdown: 0.49504950495049505,
      max_drawdown_percent: 0.049504950495049506,
      failed_transactions: 0,
      failed_transaction_fees: 0,
      sandwiched_trades: 0,
      sandwich_loss: 0,
      skipped_for_cash: 0,
    });
    const { wallet: _wallet, own: _own, ...figures } = exact[0]!;
    expect(row).toEqual(figures);
  });

  it('by hand: a buy the balance cannot pay is skipped for cash, and the sell finds no deal', () => {
    // 50 USD and its fees are more than 40 USD: no deal; the equity never moves.
    const t = tape([buy(LEADER_A, TOKEN_X, at(1), 10, 10), sell(LEADER_A, TOKEN_X, at(2), 10, 12)]);
    const r = request({ wallets: [LEADER_A], buy_percentage: 50 });
    const { candidates, words, exact } = exactAndInWords(t, r, FREE_OPTIONS, 40);
    const row = words.row(candidates[0]!.id)!;
    expect(row.deals).toBe(0);
    expect(row.copier).toMatchObject({
      starting_balance: 40,
      ending_cash: 40,
      ending_equity: 40,
      roi_on_balance: 0,
      capital_required: 0,
      max_drawdown: 0,
      max_drawdown_percent: 0,
      skipped_for_cash: 1,
    });
    const { wallet: _wallet, own: _own, ...figures } = exact[0]!;
    expect(row).toEqual(figures);
  });

  it('with a starting balance, on generated tapes: buys skipped for cash, equity and its fall in percent', () => {
    let decided = 0;
    fc.assert(
      fc.property(scenarioArb({}, 60), fc.constantFrom(5, 60, 400, 5_000), (s, balance) => {
        decided += decidedRowsAreExact(s.tape, s.request, s.options, balance);
      }),
      { numRuns: 300 },
    );
    expect(decided).toBeGreaterThan(200);
  });
});

describe('on the real tapes', () => {
  const available = present(REAL_DATA_DIR);
  if (!available)
    console.warn(`rows in double words of real tapes skipped: ${REAL_DATA_DIR} is absent on this machine`);
  it.skipIf(!available).each(REAL_TAPES.map(([name, load]) => [name, load] as const))(
    'every decided row is the exact row, and nearly every row is decided: %s',
    (_name, load) => {
      const { tape: real } = load();
      const req = suggestRequest(real, 5)!;
      const wallets = indexTape(real).walletIds.size;
      expect(decidedRowsAreExact(real, req, {})).toBeGreaterThan(0.9 * wallets);
    },
  );
});

describe('when rows are made in double words', () => {
  const parsed = (strategy: unknown, options: EngineOptionsInput = {}) => {
    const r = { ...request({ wallets: [LEADER_A] }), ...(strategy === undefined ? {} : { strategy }) };
    const p = prepare(r, options);
    return wordCopyApplies(p.parsed, p.engineOptions);
  };
  it('a strategy that only reports or sets a balance, and every swap a price observation', () => {
    expect(parsed(undefined)).toBe(true);
    expect(parsed({ report_wallet: true, report_leaders: true })).toBe(true);
    expect(parsed({ starting_balance_usd: 500 })).toBe(true);
    // Members given at their defaults change nothing.
    expect(parsed({ copy_delay_seconds: 0, take_profit: [] })).toBe(true);
  });
  it('not with another strategy member or a price threshold', () => {
    expect(parsed({ copy_delay_seconds: 5 })).toBe(false);
    expect(parsed({ stop_loss_percent: 20 })).toBe(false);
    expect(parsed({ starting_balance_usd: 500, reserve_usd: 10 })).toBe(false);
    expect(parsed(undefined, { min_price_swap_usd: 5 })).toBe(false);
  });
});
