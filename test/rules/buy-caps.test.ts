/**
 * Model 3.1, copying a leader buy: A = min(a × buy_percentage / 100, max_buy_amount,
 * max_position_amount − usd_invested), skip when A ≤ max_position_amount × 10⁻²⁰ (model 1.1's
 * dust rule, which covers A ≤ 0), and the dupe limit
 * (skip when the open deal has `buys − 1 ≥ max_dupe_buy_times`).
 * Flat scenario (test/support/scenario.ts): no slippage, so a buy of A USD at p gets A / p tokens.
 */
import { describe, expect, it } from 'vitest';
import { indexTape } from '../../src/engine/tape-index.js';
import { replay } from '../../src/engine/replay.js';
import { resolveEngineOptions } from '../../src/model/options.js';
import { parseSimulatorRequest } from '../../src/model/request.js';
import {
  at,
  buy,
  FLAT_OPTIONS,
  LEADER_A,
  LEADER_B,
  near,
  onlyDeal,
  request,
  run,
  sell,
  tape,
  TOKEN_X,
  TOKEN_Y,
  type SwapExtra,
} from '../support/scenario.js';

describe('the buy amount A and its caps (model 3.1)', () => {
  interface CapCase {
    readonly name: string;
    readonly overrides: { buy_percentage?: number; max_buy_amount?: number; max_position_amount?: number };
    /** Leader buys of TOKEN_X: [quantity, price, extra]. */
    readonly leaderBuys: readonly [number, number, SwapExtra?][];
    /** usd_amount of each follower buy, computed by hand. */
    readonly amounts: readonly number[];
  }
  const cases: CapCase[] = [
    {
      // a = 1000 × 1 = 1000; A = min(1000 × 50/100 = 500, 1000, 10000 − 0) = 500
      name: 'a × buy_percentage / 100 binds',
      overrides: { buy_percentage: 50 },
      leaderBuys: [[1000, 1]],
      amounts: [500],
    },
    {
      // buy_percentage may exceed 100: a = 400; A = min(400 × 200/100 = 800, 1000, 10000) = 800
      name: 'a buy_percentage above 100 multiplies',
      overrides: { buy_percentage: 200 },
      leaderBuys: [[400, 1]],
      amounts: [800],
    },
    {
      // a = 3000 × 1; A = min(3000, 1000, 10000) = 1000
      name: 'max_buy_amount binds',
      overrides: { max_buy_amount: 1000 },
      leaderBuys: [[3000, 1]],
      amounts: [1000],
    },
    {
      // 1st: min(1000, 1000, 1500 − 0) = 1000; usd_invested = 1000 × 1 = 1000
      // 2nd: min(1000, 1000, 1500 − 1000 = 500) = 500
      name: 'max_position_amount − usd_invested binds',
      overrides: { max_position_amount: 1500 },
      leaderBuys: [
        [1000, 1],
        [1000, 1],
      ],
      amounts: [1000, 500],
    },
    {
      // usd_invested counts cost, not market value: 1st buys 1000 at p = 1 (invested 1000);
      // 2nd at p = 4: a = 250 × 4 = 1000, room = 1600 − 1000 = 600 → A = 600
      name: 'the room uses usd_invested (cost), not the market value',
      overrides: { max_position_amount: 1600 },
      leaderBuys: [
        [1000, 1],
        [250, 4],
      ],
      amounts: [1000, 600],
    },
    {
      // 1st: 1000; 2nd: room = 1000 − 1000 = 0 → A = 0 ≤ 0 → skipped, no trace
      name: 'A = 0 skips the buy',
      overrides: { max_position_amount: 1000 },
      leaderBuys: [
        [1000, 1],
        [1000, 1],
      ],
      amounts: [1000],
    },
    {
      // usd_amount absent: a = 500 × 2 = 1000; A = 1000 × 10/100 = 100
      name: 'a = quantity × usd_price when usd_amount is absent',
      overrides: { buy_percentage: 10 },
      leaderBuys: [[500, 2]],
      amounts: [100],
    },
    {
      // usd_amount given: a = 800 (not 500 × 2 = 1000); A = 800 × 10/100 = 80
      name: 'a = usd_amount when the swap carries one',
      overrides: { buy_percentage: 10 },
      leaderBuys: [[500, 2, { usd_amount: 800 }]],
      amounts: [80],
    },
  ];

  it.each(cases)('$name', ({ overrides, leaderBuys, amounts }) => {
    const swaps = leaderBuys.map(([q, p, extra], i) => buy(LEADER_A, TOKEN_X, at(100 * (i + 1)), q, p, extra));
    const deal = onlyDeal(run(swaps, overrides));
    expect(deal.trades.map((t) => t.type)).toEqual(amounts.map(() => 'buy'));
    deal.trades.forEach((trade, i) => {
      near(trade.usd_amount, amounts[i]!, `trade ${i} usd_amount`);
      // no slippage: quantity = A / p
      near(trade.quantity, amounts[i]! / leaderBuys[i]![1], `trade ${i} quantity`);
    });
    near(
      deal.investment_amount,
      amounts.reduce((s, a) => s + a, 0),
      'investment_amount',
    );
  });
});

describe('the dust rule: skip when A ≤ max_position_amount × 10⁻²⁰ (model 1.1, 3.1 step 3)', () => {
  it('a deal at the cap leaves 1e-40 of room at 40 digits, and buys nothing more', () => {
    // max_position_amount 1: the leader buys 1 token at 3 (a = 3), A = min(3, 1000, 1 − 0) = 1.
    // quantity = 1 / 3 = 0.333…3 (40 threes); avg = 1 / 0.333…3 = 3 (the 3 × 10⁻⁴⁰ tail rounds
    // away at 40 digits); usd_invested = 0.333…3 × 3 = 0.999…9 (40 nines) = 1 − 10⁻⁴⁰.
    // The second buy: A = min(3, 1000, 10⁻⁴⁰) = 10⁻⁴⁰ ≤ 1 × 10⁻²⁰, skipped (model 1.0 bought it and paid a fee).
    const deal = onlyDeal(
      run([buy(LEADER_A, TOKEN_X, at(100), 1, 3), buy(LEADER_A, TOKEN_X, at(200), 1, 3)], { max_position_amount: 1 }),
    );
    expect(deal.trades.map((t) => t.type)).toEqual(['buy']);
    near(deal.trades[0]!.usd_amount, 1, 'usd_amount');
    near(deal.usd_network_fee, 1, 'one network fee of 1 USD, not two');
  });

  interface DustCase {
    readonly name: string;
    readonly quantity: string;
    readonly bought: boolean;
  }
  // max_position_amount 100, so the limit is 100 × 10⁻²⁰ = 10⁻¹⁸; a = quantity × 1 = A (no cap binds).
  const cases: DustCase[] = [
    { name: 'A = 10⁻¹⁸, exactly the limit: skipped', quantity: '0.000000000000000001', bought: false },
    { name: 'A = 0.9 × 10⁻¹⁸, below the limit: skipped', quantity: '0.0000000000000000009', bought: false },
    { name: 'A = 1.1 × 10⁻¹⁸, above the limit: bought', quantity: '0.0000000000000000011', bought: true },
  ];
  it.each(cases)('$name', ({ quantity, bought }) => {
    const response = run([buy(LEADER_A, TOKEN_X, at(100), quantity, 1)], { max_position_amount: 100 });
    expect(response.deals).toHaveLength(bought ? 1 : 0);
    if (bought) near(response.deals[0]!.trades[0]!.usd_amount, Number(quantity), 'usd_amount');
  });
});

describe('the dupe limit (model 3.1 step 1)', () => {
  const cases = [
    // buys − 1 ≥ max_dupe_buy_times skips: with 0 only the opening buy (0 ≥ 0 after it)
    { maxDupe: 0, leaderBuys: 3, followerBuys: 1 },
    // after 2 buys: 2 − 1 = 1 ≥ 1 → the 3rd is skipped
    { maxDupe: 1, leaderBuys: 3, followerBuys: 2 },
    // after 3 buys: 3 − 1 = 2 ≥ 2 → the 4th is skipped
    { maxDupe: 2, leaderBuys: 4, followerBuys: 3 },
    // never reached
    { maxDupe: 5, leaderBuys: 4, followerBuys: 4 },
  ];

  it.each(cases)(
    'max_dupe_buy_times $maxDupe: $leaderBuys leader buys give $followerBuys follower buys',
    ({ maxDupe, leaderBuys, followerBuys }) => {
      const swaps = Array.from({ length: leaderBuys }, (_, i) => buy(LEADER_A, TOKEN_X, at(100 * (i + 1)), 100, 1));
      const deal = onlyDeal(run(swaps, { max_dupe_buy_times: maxDupe }));
      expect(deal.trades_number).toBe(followerBuys);
      // each buy: A = min(100, 1000, room) = 100
      near(deal.investment_amount, 100 * followerBuys, 'investment_amount');
    },
  );

  it('counts buys per deal: after a close, the next buy opens a new deal with a fresh count', () => {
    // max_dupe 0: buy (deal 0), a skipped buy, the leader sells all (f = 1, deal 0 closes),
    // then a buy opens deal 1 and its follow-up is skipped again.
    const response = run(
      [
        buy(LEADER_A, TOKEN_X, at(100), 100, 1),
        buy(LEADER_A, TOKEN_X, at(200), 100, 1),
        sell(LEADER_A, TOKEN_X, at(300), 200, 1),
        buy(LEADER_A, TOKEN_X, at(400), 100, 1),
        buy(LEADER_A, TOKEN_X, at(500), 100, 1),
      ],
      { max_dupe_buy_times: 0 },
    );
    expect(response.deals.map((d) => d.trades.map((t) => `${t.type}@${t.time - at(0)}`))).toEqual([
      ['buy@100', 'sell@300'],
      ['buy@400'],
    ]);
  });
});

describe('the least dupe limit of a run (ReplayResult.leastDupeLimit)', () => {
  // X: A buys 4 times, B once (one deal, 4 dupe checks, at 0, 1, 2 and 3 dupes);
  // Y: A buys twice (one dupe check, at 0 dupes).
  const swaps = [
    buy(LEADER_A, TOKEN_X, at(100), 100, 1),
    buy(LEADER_A, TOKEN_Y, at(150), 100, 1),
    buy(LEADER_A, TOKEN_X, at(200), 100, 1),
    buy(LEADER_B, TOKEN_X, at(300), 100, 1),
    buy(LEADER_A, TOKEN_Y, at(350), 100, 1),
    buy(LEADER_A, TOKEN_X, at(400), 100, 1),
    buy(LEADER_A, TOKEN_X, at(500), 100, 1),
  ];
  const indexed = indexTape(tape(swaps));
  const runWith = (maxDupe: number) => {
    const parsed = parseSimulatorRequest(request({ wallets: [LEADER_A, LEADER_B], max_dupe_buy_times: maxDupe }));
    if (!parsed.success) throw new Error(JSON.stringify(parsed.error));
    return replay(indexed, parsed.data, resolveEngineOptions(FLAT_OPTIONS));
  };

  it.each([
    // every check passes: the last one at 3 dupes needs a limit of 4
    { maxDupe: 9, least: 4 },
    { maxDupe: 4, least: 4 },
    // checks at 0, 1, 2 pass (the one at 2 needs 3); the one at 3 is refused
    { maxDupe: 3, least: 3 },
    // X: checks at 0 and 1 pass, 2 refused (B's buy counts as a dupe of the deal); Y: 0 passes
    { maxDupe: 2, least: 2 },
    // only the checks at 0 dupes pass, in X and in Y
    { maxDupe: 1, least: 1 },
    // every check refused: no dupe buy, so every limit from 0 gives the run
    { maxDupe: 0, least: 0 },
  ])('max_dupe_buy_times $maxDupe: $least', ({ maxDupe, least }) => {
    expect(runWith(maxDupe).leastDupeLimit).toBe(least);
  });

  it('by token with `byToken`: X needs 4, Y 1; a run of X alone under limit 2 copies no Y swap', () => {
    const parsed = parseSimulatorRequest(request({ wallets: [LEADER_A, LEADER_B], max_dupe_buy_times: 9 }));
    if (!parsed.success) throw new Error(JSON.stringify(parsed.error));
    const options = resolveEngineOptions(FLAT_OPTIONS);
    // The first swap is of X, the second of Y.
    const [x, y] = [indexed.tokenOf[0]!, indexed.tokenOf[1]!];
    const byToken = replay(indexed, parsed.data, options, { byToken: () => true }).leastDupeLimitByToken!;
    expect([byToken[x], byToken[y]]).toEqual([4, 1]);
    expect(runWith(9).leastDupeLimitByToken).toBeNull();
    // onlyTokens: X's leader swaps alone are copied; Y's holdings are still followed, its swaps not copied.
    const onlyX = new Uint8Array(2);
    onlyX[x] = 1;
    const limited = parseSimulatorRequest(request({ wallets: [LEADER_A, LEADER_B], max_dupe_buy_times: 2 }));
    if (!limited.success) throw new Error(JSON.stringify(limited.error));
    const sliced = replay(indexed, limited.data, options, { onlyTokens: () => onlyX });
    // X under limit 2: the opening buy and 2 dupes
    expect(sliced.deals.map((d) => [d.tokenId, d.tradeCount])).toEqual([[x, 3]]);
  });

  it("every limit from the least to the request's own gives the same deals; one below it does not", () => {
    const trades = (maxDupe: number) => runWith(maxDupe).deals.map((d) => d.tradeCount);
    // X: 1 + 4 dupes = 5 trades, Y: 2
    expect(trades(9)).toEqual([5, 2]);
    expect(trades(4)).toEqual([5, 2]);
    expect(trades(3)).toEqual([4, 2]);
  });
});
