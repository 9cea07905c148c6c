/**
 * Ranking wallets by what copying each alone would have made (`rankWallets`, `outOfSample`,
 * `copysim rank`): every row is `simulate` of that wallet alone; the row's figures by hand.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  InputError,
  RequestError,
  simulate,
  type RankedWallet,
  type SimulatorRequestInput,
  type TapeInput,
} from '../../src/index.js';
import { suggestRequest } from '../../src/import.js';
import { indexTape } from '../../src/engine/tape-index.js';
import { outOfSample, rankWallets, spearmanOf } from '../../src/rank/index.js';
import { candidateWallets, copyWallets, rankContext, rankRequest } from '../../src/rank/rank.js';
import { prepare } from '../../src/simulate.js';
import { copierScenarioArb, strategyArb, scenarioArb } from '../support/arbitraries.js';
import { formatRankTable } from '../../src/cli/rank-command.js';
import { cli } from '../support/cli.js';
import { PROJECT_ROOT, present, REAL_DATA_DIR } from '../support/paths.js';
import { REAL_TAPES } from '../support/real-tapes.js';
import {
  at,
  buy,
  FLAT_OPTIONS,
  LEADER_A,
  LEADER_B,
  LEADER_C,
  MARKET,
  near,
  request,
  sell,
  tape,
  TOKEN_X,
  TOKEN_Y,
  TOKEN_Z,
} from '../support/scenario.js';

const EXAMPLE = join(PROJECT_ROOT, 'fixtures', 'example');
const exampleTape = (net: string): TapeInput =>
  JSON.parse(readFileSync(join(EXAMPLE, `tape-${net}.json`), 'utf8')) as TapeInput;
const exampleRequest = (net: string): SimulatorRequestInput =>
  JSON.parse(readFileSync(join(EXAMPLE, `request-${net}.json`), 'utf8')) as SimulatorRequestInput;

/** Every row's summary against simulate of that wallet alone. */
function mismatches(t: TapeInput, r: SimulatorRequestInput, options = {}): string[] {
  return rankWallets(t, r, { engineOptions: options })
    .filter(
      (row) =>
        JSON.stringify(row.summary) !== JSON.stringify(simulate(t, { ...r, wallets: [row.wallet] }, options).summary),
    )
    .map((row) => row.wallet);
}

describe('every ranked row is simulate of that wallet alone', () => {
  it.each(['sol', 'eth'])('on the bundled %s example', (net) => {
    expect(rankWallets(exampleTape(net), exampleRequest(net)).length).toBeGreaterThan(10);
    expect(mismatches(exampleTape(net), exampleRequest(net))).toEqual([]);
  });

  it('on generated scenarios, strategies included', () => {
    const arb = fc
      .tuple(scenarioArb({}, 30), fc.option(strategyArb, { nil: null }))
      .map(([s, strategy]) => ({ ...s, request: { ...s.request, strategy } }));
    fc.assert(
      fc.property(arb, (s) => {
        let problems: string[];
        try {
          problems = mismatches(s.tape, s.request, s.options);
        } catch (e) {
          if (e instanceof InputError) return; // a tape the engine refuses: refused alike by both
          throw e;
        }
        expect(problems).toEqual([]);
      }),
      { numRuns: 60, seed: 20_240_310 },
    );
  });

  const available = present(REAL_DATA_DIR);
  if (!available) console.warn(`ranking of real tapes skipped: ${REAL_DATA_DIR} is absent on this machine`);
  it.skipIf(!available).each(REAL_TAPES.map(([name, load]) => [name, load] as const))(
    'on the real tape: %s',
    (_name, load) => {
      const { tape: real } = load();
      const req = suggestRequest(real, 5)!;
      const rows = rankWallets(real, req, { top: 25 });
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.summary).toEqual(simulate(real, { ...req, wallets: [row.wallet] }).summary);
    },
  );
});

describe('wallets copied a group to a walk', () => {
  it.each(['sol', 'eth'])('give the rows of one walk for all, on the bundled %s example', (net) => {
    const { parsed, engineOptions } = prepare(rankRequest(exampleRequest(net), undefined), {});
    const context = rankContext(indexTape(exampleTape(net)), parsed, engineOptions);
    const candidates = candidateWallets(context, undefined);
    expect(candidates.length).toBeGreaterThan(10);
    const progress: number[] = [];
    const grouped = copyWallets(context, candidates, (done) => progress.push(done), 4);
    expect(grouped).toEqual(copyWallets(context, candidates, undefined, Infinity));
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(candidates.length);
  });
});

describe("a row's figures (hand-computed)", () => {
  // LEADER_A: three round trips at 1 → 2 (+100 − 2 fees), 1 → 0.5 (−50 − 2), 1 → 1.5 (+50 − 2),
  // closing in that order; LEADER_B: one open deal; MARKET trades only. No slippage, 1 USD fee a trade.
  const swaps = [
    buy(LEADER_A, TOKEN_X, at(100), 100, 1),
    sell(LEADER_A, TOKEN_X, at(200), 100, 2),
    buy(LEADER_A, TOKEN_Y, at(300), 100, 1),
    sell(LEADER_A, TOKEN_Y, at(400), 100, 0.5),
    buy(LEADER_A, TOKEN_Z, at(500), 100, 1),
    sell(LEADER_A, TOKEN_Z, at(600), 100, 1.5),
    buy(LEADER_B, TOKEN_X, at(700), 50, 2),
    buy(MARKET, TOKEN_X, at(800), 1, 3),
  ];
  const rows = rankWallets(tape(swaps), request({ wallets: [LEADER_A] }), { engineOptions: FLAT_OPTIONS });

  it('ranks every wallet with a swap in the window, by the copier PnL, ties by address', () => {
    // A: 98 − 52 + 48 = 94. B: bought 100 USD at 2 (50 tokens), worth 50 × 3 = 150 at the end: 50 − 1 fee = 49.
    // MARKET: never copied a buy of its own? It bought 1 token at 3: A = min(3, 1000, 10000) = 3 → 1 token, 0 PnL − 1 fee = −1.
    expect(rows.map((r) => r.wallet)).toEqual([LEADER_A, LEADER_B, MARKET]);
    near(rows[0]!.summary.pnl_total, 94, 'A');
    near(rows[1]!.summary.pnl_total, 49, 'B');
    near(rows[2]!.summary.pnl_total, -1, 'market');
  });

  it('deals, closed deals, winrate, profit factor, max drawdown', () => {
    const a = rows[0]!;
    expect([a.deals, a.closed_deals]).toEqual([3, 3]);
    near(a.winrate, (100 * 2) / 3, 'winrate: 2 of 3 closed deals won');
    near(a.profit_factor!, (98 + 48) / 52, 'profit factor: (98 + 48) / |−52|');
    // cumulative 98, 46, 94: the fall from 98 to 46 is 52
    near(a.max_drawdown, 52, 'max drawdown');
    expect(rows[1]!.profit_factor).toBeNull(); // no losing closed deal
    expect([rows[1]!.deals, rows[1]!.closed_deals, rows[1]!.winrate]).toEqual([1, 0, 0]);
  });

  it("the wallet's own results over the window", () => {
    // A's own deals: +100, −50, +50 on 300 USD bought: pnl 100, ROI 33.3 %, 2 of 3 won
    const own = rows[0]!.own;
    near(own.pnl_total, 100, 'own pnl');
    near(own.roi_total, 100 / 3, 'own roi');
    near(own.winrate, (100 * 2) / 3, 'own winrate');
    expect(own.deals).toBe(3);
  });

  it('sorts by any metric, leaves out wallets under --min-deals, keeps --top', () => {
    const t = tape(swaps);
    const r = request({ wallets: [LEADER_A] });
    expect(rankWallets(t, r, { engineOptions: FLAT_OPTIONS, sortBy: 'max_drawdown' }).map((x) => x.wallet)).toEqual([
      LEADER_A,
      LEADER_B,
      MARKET,
    ]);
    expect(
      rankWallets(t, r, { engineOptions: FLAT_OPTIONS, sortBy: 'own_pnl_total', top: 1 }).map((x) => x.wallet),
    ).toEqual([LEADER_A]);
    expect(rankWallets(t, r, { engineOptions: FLAT_OPTIONS, minDeals: 2 }).map((x) => x.wallet)).toEqual([LEADER_A]);
    // profit factor: A 2.8, B and MARKET none (null sorts last, ties by address)
    expect(rankWallets(t, r, { engineOptions: FLAT_OPTIONS, sortBy: 'profit_factor' }).map((x) => x.wallet)).toEqual([
      LEADER_A,
      LEADER_B,
      MARKET,
    ]);
  });

  it('ranks only the given wallets, and names one the tape does not have', () => {
    expect(
      rankWallets(tape(swaps), request(), { wallets: [LEADER_B], engineOptions: FLAT_OPTIONS }).map((x) => x.wallet),
    ).toEqual([LEADER_B]);
    expect(() => rankWallets(tape(swaps), request(), { wallets: [LEADER_C] })).toThrow(
      /wallet 1 of the list \(LeaderC.*\) has no swap in the tape: check its spelling/,
    );
  });
});

/** The request a ranked wallet is copied with: that wallet alone, the copier's wallet reported, and the balance. */
function copiedAlone(r: SimulatorRequestInput, wallet: string, balance?: number): SimulatorRequestInput {
  const members = { report_wallet: true, ...(balance === undefined ? {} : { starting_balance_usd: balance }) };
  return { ...r, wallets: [wallet], strategy: { ...(r.strategy ?? {}), ...members } } as SimulatorRequestInput;
}

describe("the copier's wallet in a ranking (model 3.0)", () => {
  it("every row's summary and copier are simulate's, every rule on, with and without a balance", () => {
    const arb = fc.tuple(copierScenarioArb(30), fc.option(fc.constantFrom(50, 300, 5_000), { nil: undefined }));
    fc.assert(
      fc.property(arb, ([s, balance]) => {
        let rows: RankedWallet[];
        try {
          rows = rankWallets(s.tape, s.request, {
            engineOptions: s.options,
            ...(balance === undefined ? {} : { balance }),
          });
        } catch (e) {
          if (e instanceof InputError || e instanceof RequestError) return; // a tape or request the engine refuses
          throw e;
        }
        for (const row of rows) {
          const direct = simulate(s.tape, copiedAlone(s.request, row.wallet, balance), s.options);
          expect(row.summary).toEqual(direct.summary);
          expect(row.copier).toEqual(direct.copier);
          if (balance !== undefined) expect(row.copier.starting_balance).toBe(balance);
        }
      }),
      { numRuns: 80, seed: 43 },
    );
  });

  // LEADER_A: three round trips of 100 USD (buy 100 at 1, then 100 at 1, then 100 at 1); LEADER_B
  // buys 50 at 2; MARKET buys 1 at 3. No slippage, 1 USD network fee a trade.
  const swaps = [
    buy(LEADER_A, TOKEN_X, at(100), 100, 1),
    sell(LEADER_A, TOKEN_X, at(200), 100, 2),
    buy(LEADER_A, TOKEN_Y, at(300), 100, 1),
    sell(LEADER_A, TOKEN_Y, at(400), 100, 0.5),
    buy(LEADER_A, TOKEN_Z, at(500), 100, 1),
    sell(LEADER_A, TOKEN_Z, at(600), 100, 1.5),
    buy(LEADER_B, TOKEN_X, at(700), 50, 2),
    buy(MARKET, TOKEN_X, at(800), 1, 3),
  ];
  const byWallet = (rows: RankedWallet[]) => new Map(rows.map((r) => [r.wallet, r]));

  it('capital_required: the most money in use at once, fees included (hand-computed)', () => {
    const rows = byWallet(rankWallets(tape(swaps), request(), { engineOptions: FLAT_OPTIONS }));
    // A: cash −101 after each buy; after the sells +199, then +49, then +149: it never has more
    // than one buy out at once, and the first one is the deepest: 101. B: 100 + 1. MARKET: 3 + 1.
    expect([LEADER_A, LEADER_B, MARKET].map((w) => rows.get(w)!.copier.capital_required)).toEqual([101, 101, 4]);
    expect(rows.get(LEADER_A)!.copier.starting_balance).toBeNull();
    expect(rows.get(LEADER_A)!.copier.skipped_for_cash).toBe(0);
  });

  it('--balance: every copier starts with it, and a buy it cannot pay for is skipped (hand-computed)', () => {
    // 100 USD: A's buys need 100 + 1 > 100: all three skipped, no deal; B's alike; MARKET's 3 + 1 lands (−1).
    const poor = rankWallets(tape(swaps), request(), { engineOptions: FLAT_OPTIONS, balance: 100 });
    expect(poor.map((r) => [r.wallet, r.summary.pnl_total, r.deals, r.copier.skipped_for_cash])).toEqual([
      [LEADER_A, 0, 0, 3],
      [LEADER_B, 0, 0, 1],
      [MARKET, -1, 1, 0],
    ]);
    // 101 USD, A's capital_required: equal is enough, every buy lands, the rows are the unlimited ones.
    const enough = rankWallets(tape(swaps), request(), { engineOptions: FLAT_OPTIONS, balance: 101 });
    const unlimited = byWallet(rankWallets(tape(swaps), request(), { engineOptions: FLAT_OPTIONS }));
    for (const row of enough) {
      expect(row.copier.skipped_for_cash).toBe(0);
      expect(row.summary).toEqual(unlimited.get(row.wallet)!.summary);
    }
    // A ends with 101 + 94 = 195 USD: ROI on the balance 94 / 101.
    near(enough[0]!.copier.ending_equity!, 195, 'A ending equity');
    near(enough[0]!.copier.roi_on_balance!, (100 * 94) / 101, 'A roi on balance');
    // The balance goes over the request's own; sorting by the new columns.
    const own = request({ strategy: { starting_balance_usd: 5 } });
    expect(
      rankWallets(tape(swaps), own, { engineOptions: FLAT_OPTIONS, balance: 100 })[2]!.copier.starting_balance,
    ).toBe(100);
    expect(
      rankWallets(tape(swaps), request(), {
        engineOptions: FLAT_OPTIONS,
        balance: 100,
        sortBy: 'skipped_for_cash',
      }).map((r) => r.wallet),
    ).toEqual([LEADER_A, LEADER_B, MARKET]);
    expect(
      rankWallets(tape(swaps), request(), { engineOptions: FLAT_OPTIONS, sortBy: 'capital_required' }).map(
        (r) => r.wallet,
      ),
    ).toEqual([LEADER_A, LEADER_B, MARKET]);
  });

  it('refuses a balance that is not an amount above 0', () => {
    for (const balance of [0, -5, Number.NaN, Infinity]) {
      expect(() => rankWallets(tape(swaps), request(), { balance })).toThrow(
        new InputError(`balance ${balance} must be a number of USD above 0`, { source: 'balance' }),
      );
    }
  });

  it('out of sample with a balance: the top wallets share it after the split', () => {
    // Day 1: A and B each make a round trip of 100 USD; day 2 both buy 100 USD at once and sell later.
    const day = 86_400;
    const two = [
      buy(LEADER_A, TOKEN_X, at(100), 100, 1),
      sell(LEADER_A, TOKEN_X, at(200), 100, 2),
      buy(LEADER_B, TOKEN_Y, at(300), 100, 1),
      sell(LEADER_B, TOKEN_Y, at(400), 100, 1.5),
      buy(LEADER_A, TOKEN_Z, at(day + 100), 100, 1),
      buy(LEADER_B, TOKEN_Y, at(day + 150), 100, 1),
      sell(LEADER_A, TOKEN_Z, at(day + 200), 100, 2),
      sell(LEADER_B, TOKEN_Y, at(day + 300), 100, 2),
    ];
    const check = outOfSample(tape(two), request({ to_date: '2024-03-11' }), '2024-03-11', {
      engineOptions: FLAT_OPTIONS,
      balance: 150,
    });
    // After the split, A's buy leaves 150 − 101 = 49 and B's needs 101: skipped for cash, so the
    // two copied together make A's 98 alone, and had 101 in use at most.
    expect(check.top.wallets).toEqual([LEADER_A, LEADER_B]);
    near(check.top.summary!.pnl_total, 98, 'together');
    expect(check.top.copier).toEqual(
      simulate(
        tape(two),
        {
          ...copiedAlone(request(), LEADER_A, 150),
          wallets: [LEADER_A, LEADER_B],
          from_date: '2024-03-11',
          to_date: '2024-03-11',
        },
        FLAT_OPTIONS,
      ).copier,
    );
    expect([check.top.copier!.skipped_for_cash, check.top.copier!.capital_required]).toEqual([1, 101]);
  });
});

describe('out of sample', () => {
  // Day 1 (2024-03-10): A wins 98, B wins 48. Day 2: A loses 52, B wins 98 (rankings reversed).
  const day = 86_400;
  const swaps = [
    buy(LEADER_A, TOKEN_X, at(100), 100, 1),
    sell(LEADER_A, TOKEN_X, at(200), 100, 2),
    buy(LEADER_B, TOKEN_Y, at(300), 100, 1),
    sell(LEADER_B, TOKEN_Y, at(400), 100, 1.5),
    buy(LEADER_A, TOKEN_Z, at(day + 100), 100, 1),
    sell(LEADER_A, TOKEN_Z, at(day + 200), 100, 0.5),
    buy(LEADER_B, TOKEN_X, at(day + 300), 100, 1),
    sell(LEADER_B, TOKEN_X, at(day + 400), 100, 2),
  ];
  const twoDays = request({ to_date: '2024-03-11' });

  it('ranks before the split, evaluates after, and gives the rank correlation and the top copied together', () => {
    const check = outOfSample(tape(swaps), twoDays, '2024-03-11', { engineOptions: FLAT_OPTIONS, top: 1 });
    expect(check.before).toEqual({ from_date: '2024-03-10', to_date: '2024-03-10' });
    expect(check.after).toEqual({ from_date: '2024-03-11', to_date: '2024-03-11' });
    // --top keeps one row and copies that one wallet after the split
    expect(check.rows.map((r) => r.wallet)).toEqual([LEADER_A]);
    const all = outOfSample(tape(swaps), twoDays, '2024-03-11', { engineOptions: FLAT_OPTIONS }).rows;
    expect(all.map((r) => r.wallet)).toEqual([LEADER_A, LEADER_B]);
    near(all[0]!.summary.pnl_total, 98, 'A before');
    near(all[0]!.after.pnl_total, -52, 'A after');
    near(all[1]!.summary.pnl_total, 48, 'B before');
    near(all[1]!.after.pnl_total, 98, 'B after');
    // two wallets whose order reverses: ranks (2, 1) against (1, 2): ρ = −1
    expect(check.spearman).toBe(-1);
    expect(check.spearman_wallets).toBe(2);
    // the before-split top 1 (A) copied after the split: −52
    expect(check.top.wallets).toEqual([LEADER_A]);
    expect(check.top.summary).toEqual(
      simulate(tape(swaps), { ...twoDays, from_date: '2024-03-11', wallets: [LEADER_A] }, FLAT_OPTIONS).summary,
    );
  });

  it('refuses a split outside the window', () => {
    expect(() => outOfSample(tape(swaps), twoDays, '2024-03-10')).toThrow(
      /must fall after from_date 2024-03-10 and no later than to_date 2024-03-11/,
    );
    // The library names its parameter; the command line names its flag (below).
    const notADay = /^split tomorrow is not a date in the form YYYY-MM-DD$/;
    expect(() => outOfSample(tape(swaps), twoDays, 'tomorrow')).toThrow(notADay);
  });

  it("Spearman's correlation: ties share their mean rank (hand-computed)", () => {
    expect(spearmanOf([1, 2, 3], [10, 20, 30])).toBe(1);
    // x ranks 1, 2, 3; y ranks 1.5, 1.5, 3: ρ = Pearson((1,2,3), (1.5,1.5,3)) = 0.866…
    expect(spearmanOf([1, 2, 3], [5, 5, 9])).toBeCloseTo(Math.sqrt(3) / 2, 12);
    expect(spearmanOf([1], [1])).toBeNull();
    expect(spearmanOf([1, 2], [3, 3])).toBeNull();
  });
});

describe('copysim rank', () => {
  const args = ['--tape', join(EXAMPLE, 'tape-sol.json'), '--request', join(EXAMPLE, 'request-sol.json')];

  it('prints a table on the bundled example, best copier first', async () => {
    const { code, out } = await cli('rank', ...args, '--top', '5');
    expect(code).toBe(0);
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Wallets ranked by the copier's pnl_total/);
    expect(lines).toHaveLength(3 + 5);
  });

  it('the table writes money as toLocaleString does: two decimals, thousands separated', () => {
    const rows = rankWallets(exampleTape('sol'), exampleRequest('sol'), { top: 3 });
    const table = formatRankTable(rows, 'pnl_total');
    const money = (v: number): string =>
      v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    for (const row of rows) {
      for (const v of [row.summary.pnl_total, row.max_drawdown, row.copier.capital_required, row.own.pnl_total]) {
        expect(table).toContain(money(v));
      }
    }
    // By hand: 1234567.891 USD is written 1,234,567.89.
    const big = { ...rows[0]!, summary: { ...rows[0]!.summary, pnl_total: 1234567.891 } };
    expect(formatRankTable([big], 'pnl_total')).toContain('1,234,567.89');
  });

  it('--format jsonl: one object a line with wallet and the summary, as rankWallets gives them', async () => {
    const { out } = await cli('rank', ...args, '--format', 'jsonl', '--sort-by', 'roi_total', '--min-deals', '3');
    const rows = out
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { wallet: string; summary: object });
    expect(rows).toEqual(rankWallets(exampleTape('sol'), exampleRequest('sol'), { sortBy: 'roi_total', minDeals: 3 }));
  });

  it('--format csv: a header and one line a wallet; with --split the verdict on standard error', async () => {
    const { out, err } = await cli('rank', ...args, '--format', 'csv', '--split', '2024-03-11', '--top', '3');
    const lines = out.trimEnd().split('\n');
    expect(lines[0]!.startsWith('wallet,pnl_total,pnl_realized,')).toBe(true);
    expect(lines[0]).toContain(',after_pnl_total,');
    expect(lines).toHaveLength(4);
    expect(err).toMatch(/Spearman's rank correlation of pnl_total, before against after: -?\d\.\d{3} \(\d+ wallets\)/);
  });

  it('--balance: the table gains the cash skips, the csv its columns; a bad amount is named', async () => {
    const { code, out } = await cli('rank', ...args, '--top', '3', '--balance', '250');
    expect(code).toBe(0);
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /capital: capital_required, USD; cash skips: copies skipped for cash, each copier starting with 250\.00 USD\)$/,
    );
    expect(lines[1]).toMatch(/\s+max DD\s+capital\s+cash skips\s+own PnL\s+/);
    const rows = rankWallets(exampleTape('sol'), exampleRequest('sol'), { balance: 250, top: 3 });
    rows.forEach((row, i) => expect(lines[3 + i]!.trim().split(/\s{2,}/)[9]).toBe(String(row.copier.skipped_for_cash)));
    const csv = await cli('rank', ...args, '--format', 'csv', '--top', '2');
    const header = csv.out.split('\n')[0]!.split(',');
    const first = csv.out.split('\n')[1]!.split(',');
    const plain = rankWallets(exampleTape('sol'), exampleRequest('sol'), { top: 2 });
    expect(Number(first[header.indexOf('capital_required')])).toBe(plain[0]!.copier.capital_required);
    expect(Number(first[header.indexOf('skipped_for_cash')])).toBe(0);
    for (const bad of ['0', '-5', 'lots', '1e3']) {
      const run = await cli('rank', ...args, `--balance=${bad}`);
      expect([run.code, run.out]).toEqual([1, '']);
      expect(
        run.err.startsWith(`copysim rank: --balance takes an amount of USD above 0, such as 1000, not "${bad}"\n`),
      ).toBe(true);
    }
  });

  it('names a bad option and a bad request', async () => {
    const bad = await cli('rank', ...args, '--sort-by', 'luck');
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/--sort-by takes one of pnl_total, .*; "luck" is none/);
    const format = await cli('rank', ...args, '--format', 'xml');
    expect(format.err).toMatch(/--format takes table, csv or jsonl, not "xml"/);
    const split = await cli('rank', ...args, '--split', 'tomorrow');
    const err = 'copysim rank: --split tomorrow is not a date in the form YYYY-MM-DD\n';
    expect(split).toEqual({ code: 1, out: '', err });
  });
});

describe('copysim rank --balance 1000 on the real PumpSwap capture', () => {
  const available = present(REAL_DATA_DIR);
  if (!available)
    console.warn(`rank --balance of the PumpSwap capture skipped: ${REAL_DATA_DIR} is absent on this machine`);
  const scratch = mkdtempSync(join(tmpdir(), 'copysim-rank-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it.skipIf(!available)(
    'ranks every wallet of the capture as copiers of 1,000 USD: each row simulate of that wallet alone',
    async () => {
      const { tape: real } = REAL_TAPES.find(([name]) => name.startsWith('PumpSwap'))![1]();
      const req = suggestRequest(real, 5)!;
      const tapeFile = join(scratch, 'pumpswap.json');
      const requestFile = join(scratch, 'request.json');
      writeFileSync(tapeFile, JSON.stringify(real));
      writeFileSync(requestFile, JSON.stringify(req));
      const run = await cli(
        'rank',
        '--tape',
        tapeFile,
        '--request',
        requestFile,
        '--balance',
        '1000',
        '--format',
        'jsonl',
      );
      expect(run.code, run.err).toBe(0);
      const rows = run.out
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as RankedWallet);
      expect(rows.length).toBeGreaterThan(100);
      expect(rows.every((r) => r.copier.starting_balance === 1000)).toBe(true);
      for (const row of rows.slice(0, 10)) {
        const direct = simulate(real, copiedAlone(req, row.wallet, 1000));
        expect(row.summary).toEqual(direct.summary);
        expect(row.copier).toEqual(direct.copier);
      }
      // A wallet whose copier needed at most 1,000 USD with unlimited money is copied alike with
      // 1,000 (every attempt lands: no tolerance, no failures); one that needed more skips buys.
      const unlimited = new Map(rankWallets(real, req).map((r) => [r.wallet, r]));
      let affordable = 0;
      let skipping = 0;
      for (const row of rows) {
        const free = unlimited.get(row.wallet)!;
        if (free.copier.capital_required < 1000) {
          affordable++;
          expect(row.copier.skipped_for_cash).toBe(0);
          expect(row.summary).toEqual(free.summary);
        } else if (row.copier.skipped_for_cash > 0) {
          skipping++;
        }
        expect(row.copier.capital_required).toBeLessThanOrEqual(1000);
      }
      expect(affordable).toBeGreaterThan(0);
      expect(skipping).toBeGreaterThan(0);
    },
  );
});
