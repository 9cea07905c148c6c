/**
 * Sweeps: many requests over one tape give, in input order, each request's own summary (the
 * same as `simulate`), or its 400 body; the number of workers changes nothing but the speed.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError, RequestError } from '../../src/model/errors.js';
import type { SimulatorRequestInput } from '../../src/model/request.js';
import type { TapeInput } from '../../src/model/tape.js';
import { simulate } from '../../src/simulate.js';
import { indexTape } from '../../src/engine/tape-index.js';
import { sweep, type SweepResult } from '../../src/sweep/index.js';
import { sweepWorkerUrl } from '../../src/sweep/pool.js';
import { FOLLOWERS_A_WALK, runBatch, runOne } from '../../src/sweep/run-one.js';
import { resolveEngineOptions } from '../../src/model/options.js';
import { parseSimulatorRequest } from '../../src/model/request.js';
import { requestVariants, TapeGenerator } from '../../bench/tape-generator.js';
import { copierArb, copierScenarioArb, scenarioArb, strategyArb } from '../support/arbitraries.js';
import {
  at,
  buy,
  FLAT_OPTIONS,
  MARKET,
  near,
  request,
  sell,
  tape as scenarioTape,
  TOKEN_X,
  LEADER_A,
} from '../support/scenario.js';
import { progressBar } from '../../src/cli/progress.js';
import { cli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'copysim-sweep-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A small seeded tape in the benchmark's shape: pump-and-dump tokens, leaders, market wallets.
const generator = new TapeGenerator({ swaps: 3_000, leaders: 8, tokens: 25, marketWallets: 50, days: 3, seed: 11 });
const tape = { ...generator.header, swaps: [...generator.swaps()] };
const requests: unknown[] = requestVariants(generator.request(), 12, 5);
requests.splice(3, 0, { ...(requests[0] as object), buy_percentage: 0 }); // a 400: validation_error
requests.splice(7, 0, { ...(requests[0] as object), from_date: '2024-03-09', to_date: '2024-03-01' }); // a 400: invalid_date_range

function expectedResult(request: unknown, index: number): SweepResult {
  try {
    return { index, summary: simulate(tape, request).summary };
  } catch (e) {
    return { index, error: (e as { body: never }).body };
  }
}

describe('sweep', () => {
  const expected = requests.map(expectedResult);

  it('gives each request the summary simulate gives it, or its 400 body, in input order', async () => {
    expect(expected.filter((r) => 'error' in r).map((r) => r.index)).toEqual([3, 7]);
    expect(await sweep(tape, requests, { workers: 0 })).toEqual(expected);
  });

  it('keeps whole responses with `full`, the same as simulate', async () => {
    const results = await sweep(indexTape(tape), requests.slice(0, 3), { workers: 0, full: true });
    results.forEach((r, i) => {
      expect('response' in r && r.response).toEqual(simulate(tape, requests[i]));
    });
  });

  it('summaries equal simulate’s on generated scenarios (every feature of the model)', async () => {
    await fc.assert(
      fc.asyncProperty(
        scenarioArb({}, 30),
        fc.array(
          fc.record({
            close_all: fc.boolean(),
            max_dupe_buy_times: fc.nat(3),
            strategy: fc.option(strategyArb, { nil: null }),
          }),
          { maxLength: 3 },
        ),
        async (s, changes) => {
          const reqs: SimulatorRequestInput[] = [s.request, ...changes.map((c) => ({ ...s.request, ...c }))];
          let want: SweepResult[];
          try {
            want = reqs.map((r, index) => ({ index, summary: simulate(s.tape, r, s.options).summary }));
          } catch {
            return; // a tape the engine cannot use: covered below
          }
          expect(await sweep(s.tape, reqs, { workers: 0, engineOptions: s.options })).toEqual(want);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('runs strategies (model 2.0) as simulate does, on worker threads too', async () => {
    const base = requests[0] as object;
    const strategies = [
      { copy_delay_seconds: 5 },
      {
        take_profit: [
          { roi: 50, sell_percent: 50 },
          { roi: 150, sell_percent: 100 },
        ],
        stop_loss_percent: 30,
      },
      { trailing_stop_percent: 25, max_hold_hours: 6, min_liquidity_usd: 1_000, report_skipped: true },
    ];
    const reqs = strategies.map((strategy) => ({ ...base, strategy }));
    const want = reqs.map((r, index) => ({ index, summary: simulate(tape, r).summary }));
    expect(await sweep(tape, reqs, { workers: 2 })).toEqual(want);
    const full = await sweep(indexTape(tape), reqs.slice(2), { workers: 0, full: true });
    expect('response' in full[0]! && full[0].response).toEqual(simulate(tape, reqs[2]));
  });

  it('reports progress up to the total', async () => {
    const seen: number[] = [];
    await sweep(tape, requests.slice(0, 4), { workers: 0, onProgress: (done, total) => seen.push(total - done) });
    expect(seen.at(-1)).toBe(0);
  });

  it('answers a request for another network on its own line; the others get their summaries', async () => {
    const eth = { ...(requests[0] as object), network: 'eth' };
    expect(await sweep(tape, [requests[0], eth, requests[1]], { workers: 0 })).toEqual([
      expected[0],
      {
        index: 1,
        error: {
          code: 'validation_error',
          detail: [
            {
              path: 'network',
              message:
                'the tape holds swaps of network "sol" but the request asks for "eth": use a eth tape, or set network to "sol"',
            },
          ],
        },
      },
      { ...expected[1]!, index: 2 },
    ]);
  });

  it('refuses the whole sweep when the tape cannot serve a request, naming it', async () => {
    const noNative = { ...tape, native_prices: [] };
    await expect(sweep(noNative, [requests[0]], { workers: 0 })).rejects.toThrow(
      /request 0: tape: native_prices is empty/,
    );
  });

  it('runs a batch as one walk; a request the tape cannot serve gets its own error and the others their outputs', () => {
    // No native prices: a request with a follower trade needs one for its network fee; a window
    // after the tape's last swap has no trade, and runs.
    const noNative = indexTape({ ...tape, native_prices: [] });
    const options = resolveEngineOptions({});
    const valid = (r: unknown) => {
      const parsed = parseSimulatorRequest(r);
      if (!parsed.success) throw new Error(JSON.stringify(parsed.error));
      return parsed.data;
    };
    const idle = (r: unknown) => valid({ ...(r as object), from_date: '2030-01-01', to_date: '2030-01-02' });
    const paying = valid(requests[0]);
    const batch = [idle(requests[0]), paying, idle(requests[1])];
    const outcomes = runBatch(noNative, batch, options, false);
    // A window with no swap: no dupe buy checked, every limit gives the run.
    expect(outcomes[0]).toEqual({ output: runOne(noNative, batch[0]!, options, false), leastDupeLimit: 0 });
    expect((outcomes[1] as { thrown: Error }).thrown).toBeInstanceOf(InputError);
    expect((outcomes[1] as { thrown: Error }).thrown.message).toMatch(/native_prices is empty/);
    expect(outcomes[2]).toEqual({ output: runOne(noNative, batch[2]!, options, false), leastDupeLimit: 0 });
    // Together, with the tape's native prices, each output is runOne's, whole responses included.
    const indexed = indexTape(tape);
    const all = requests.filter((r) => parseSimulatorRequest(r).success).map(valid);
    const defaults = resolveEngineOptions({});
    expect(runBatch(indexed, all, defaults, true).map((o) => 'output' in o && o.output)).toEqual(
      all.map((r) => runOne(indexed, r, defaults, true)),
    );
  });

  it("calls the host's afterWalk once a walk of two requests, and changes no result with it", async () => {
    const indexed = indexTape(tape);
    const options = resolveEngineOptions({});
    const valid = requests.flatMap((r) => {
      const parsed = parseSimulatorRequest(r);
      return parsed.success ? [parsed.data] : [];
    });
    let walks = 0;
    const outcomes = runBatch(indexed, valid, options, false, () => walks++);
    expect(walks).toBe(Math.ceil(valid.length / FOLLOWERS_A_WALK));
    expect(outcomes).toEqual(runBatch(indexed, valid, options, false));
    let here = 0;
    expect(await sweep(tape, requests, { workers: 0, afterWalk: () => here++ })).toEqual(expected);
    expect(here).toBeGreaterThan(0);
  });

  const workerUrl = sweepWorkerUrl();
  if (workerUrl === null)
    console.warn('sweep on worker threads skipped: no build (run `npm run build`; `npm test` does)');
  it.skipIf(workerUrl === null)('gives the same results on worker threads (the compiled worker of dist/)', async () => {
    expect(await sweep(tape, requests, { workers: 2 })).toEqual(expected);
    expect(await sweep(tape, requests.slice(0, 2), { workers: 5 })).toEqual(expected.slice(0, 2));
    const eth = { ...(requests[0] as object), network: 'eth' };
    await expect(sweep({ ...tape, native_prices: [] }, [requests[0], requests[1]], { workers: 2 })).rejects.toThrow(
      /request 0: tape: native_prices is empty/,
    );
    expect(await sweep(tape, [eth, requests[0]], { workers: 2 })).toEqual([
      { index: 0, error: expect.objectContaining({ code: 'validation_error' }) },
      { ...expected[0]!, index: 1 },
    ]);
  });
});

describe('copysim sweep', () => {
  const tapePath = join(dir, 'tape.json');
  writeFileSync(tapePath, JSON.stringify(tape));
  const requestsPath = join(dir, 'requests.jsonl');
  const lines = requests.slice(0, 5).map((r) => JSON.stringify(r));
  writeFileSync(requestsPath, `${lines.slice(0, 2).join('\n')}\n\n{not json\n${lines.slice(2).join('\n')}\n`);
  const expected = [0, 1, 2, 3, 4].map((i) => expectedResult(requests[i], i));

  it('prints one JSON line per request, in input order; a line that is not JSON gets a 400 body', async () => {
    const run = await cli('sweep', '--tape', tapePath, '--requests', requestsPath, '--workers', '0');
    expect(run.code, run.err).toBe(0);
    const out = run.out
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    // lines: requests 0 and 1, the broken line, requests 2, 3 (buy_percentage 0: a 400) and 4
    expect(out.map((o) => Object.keys(o))).toEqual([
      ['index', 'summary'],
      ['index', 'summary'],
      ['index', 'error'],
      ['index', 'summary'],
      ['index', 'error'],
      ['index', 'summary'],
    ]);
    expect(out.map((o) => o.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(out[2]).toEqual({
      index: 2,
      error: {
        code: 'validation_error',
        detail: [{ path: '', message: expect.stringMatching(/^line 4 is not valid JSON/) }],
      },
    });
    expect(out.filter((_, i) => i !== 2).map((o) => ('summary' in o ? o.summary : o.error))).toEqual(
      expected.map((r) => ('summary' in r ? r.summary : r.error)),
    );
  });

  it('writes each whole response to --full DIR, named by zero-padded index', async () => {
    const full = join(dir, 'full');
    const run = await cli('sweep', '--tape', tapePath, '--requests', requestsPath, '--workers', '0', '--full', full);
    expect(run.code, run.err).toBe(0);
    expect(readdirSync(full).sort()).toEqual(['0.json', '1.json', '3.json', '5.json']); // 2 and 4 got 400 bodies
    expect(JSON.parse(readFileSync(join(full, '3.json'), 'utf8'))).toEqual(simulate(tape, requests[2]));
  });

  it.each([
    [['--requests', 'r.jsonl'], /sweep needs --tape/],
    [['--tape', 't.json', '--requests', 'r.jsonl', '--workers', 'two'], /--workers must be a whole number/],
    [['--tape', join(dir, 'missing.json'), '--requests', requestsPath], /tape file .*missing\.json: no such file/],
  ])('exits 1 with a clear message: %j', async (args, message) => {
    const run = await cli('sweep', ...args);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(message);
    expect(existsSync(join(dir, 'missing.json'))).toBe(false);
  });
});

/** What a sweep gives a request by simulate: its summary, and its copier when it reports one; or its 400 body. */
function simulated(t: TapeInput, request: unknown, index: number, options = {}): SweepResult {
  try {
    const { summary, copier } = simulate(t, request, options);
    return copier === undefined ? { index, summary } : { index, summary, copier };
  } catch (e) {
    if (e instanceof RequestError) return { index, error: e.body };
    throw e;
  }
}

describe("the copier's wallet (model 3.0) in a sweep", () => {
  // The leader buys 100 tokens at 1.00 at 100 s; the market trades X at 1.05 at 103 s and at 1.20
  // at 110 s; the leader sells all at 2.00 at 1,000 s. No slippage, 1 USD network fee a landed
  // trade, and a failed attempt pays (base_fee_native + priority_fee) × 100 = 1 USD as well.
  const swaps = [
    buy(LEADER_A, TOKEN_X, at(100), 100, 1),
    buy(MARKET, TOKEN_X, at(103), 1, 1.05),
    buy(MARKET, TOKEN_X, at(110), 1, 1.2),
    sell(LEADER_A, TOKEN_X, at(1000), 100, 2),
  ];
  const grid = [10, 30].flatMap((tolerance) =>
    [0, 5, 15].map((delay) =>
      request({ strategy: { slippage_tolerance_percent: tolerance, copy_delay_seconds: delay } }),
    ),
  );

  it('a tolerance × delay grid, hand-computed: later copies fill worse, and past the tolerance fail', async () => {
    const results = await sweep(scenarioTape(swaps), grid, { workers: 0, engineOptions: FLAT_OPTIONS });
    const pnl = results.map((r) => ('summary' in r ? r.summary.pnl_total : NaN));
    // delay 0: 100 tokens at 1.00, sold at 2.00: 200 − 100 − 2 fees = 98
    // delay 5: the copy lands at 105 s at the 1.05 of 103 s (≤ 1.00 × 1.10): 100 / 1.05 tokens,
    //   sold at 1,005 s at 2.00: 190.476… − 100 − 2 = 88.476…
    // delay 15, tolerance 10 %: the fill 1.20 > 1.10 fails (1 USD), no deal: PnL 0, the sell is no_open_deal
    // delay 15, tolerance 30 %: 1.20 ≤ 1.30 lands: 83.33… tokens, sold for 166.66…: 64.66…
    [98, 200 / 1.05 - 102, 0, 98, 200 / 1.05 - 102, 200 / 1.2 - 102].forEach((v, i) => near(pnl[i], v, `request ${i}`));
    const copier = results.map((r) => ('copier' in r ? r.copier! : null));
    expect(copier.map((c) => c?.failed_transactions)).toEqual([0, 0, 1, 0, 0, 0]);
    expect(copier.map((c) => c?.failed_transaction_fees)).toEqual([0, 0, 1, 0, 0, 0]);
    // the most money in use: a buy of 100 and its 1 USD fee; the failed attempt's 1 USD alone
    expect(copier.map((c) => c?.capital_required)).toEqual([101, 101, 1, 101, 101, 101]);
    expect(copier[0]!.starting_balance).toBeNull();
  });

  it('gives each request its summary and copier exactly as simulate does, on generated scenarios', async () => {
    // Each scenario's request with other copier's wallets, and once without any of its members.
    const arb = fc.tuple(copierScenarioArb(40), fc.array(copierArb, { maxLength: 3 }));
    await fc.assert(
      fc.asyncProperty(arb, async ([s, wallets]) => {
        const plain = { ...s.request, strategy: null };
        const reqs = [
          s.request,
          plain,
          ...wallets.map((w) => ({ ...s.request, strategy: { ...s.request.strategy, ...w } })),
        ];
        let want: SweepResult[];
        try {
          want = reqs.map((r, index) => simulated(s.tape, r, index, s.options));
        } catch (e) {
          if (e instanceof InputError) return; // a tape the engine cannot use: refused alike by both
          throw e;
        }
        const got = await sweep(s.tape, reqs, { workers: 0, engineOptions: s.options });
        expect(got).toEqual(want);
        expect(Object.keys(got[1]!)).toEqual(['index', 'summary']);
      }),
      { numRuns: 80, seed: 41 },
    );
  });

  it.skipIf(sweepWorkerUrl() === null)('gives the same on worker threads', async () => {
    const base = requests[0] as object;
    const reqs = [
      { ...base, strategy: { starting_balance_usd: 500, max_open_deals: 2 } },
      {
        ...base,
        strategy: {
          slippage_tolerance_percent: 2,
          sandwich_percent: 50,
          failed_transaction_percent: 10,
          retries: 1,
          random_seed: 7,
        },
      },
      { ...base, strategy: { copy_delay_seconds: 5, report_wallet: true, report_leaders: true } },
      base,
    ];
    expect(await sweep(tape, reqs, { workers: 2 })).toEqual(reqs.map((r, i) => simulated(tape, r, i)));
  });

  it('copysim sweep: a line carries "copier" after the summary; a line without its members is as before', async () => {
    const t = join(dir, 'grid-tape.json');
    writeFileSync(t, JSON.stringify(scenarioTape(swaps)));
    const options = join(dir, 'flat-options.json');
    writeFileSync(options, JSON.stringify(FLAT_OPTIONS));
    const file = join(dir, 'grid.jsonl');
    const reqs = [grid[2]!, request()];
    writeFileSync(file, reqs.map((r) => JSON.stringify(r)).join('\n'));
    const full = join(dir, 'grid-full');
    const run = await cli(
      'sweep',
      '--tape',
      t,
      '--requests',
      file,
      '--options',
      options,
      '--workers',
      '0',
      '--full',
      full,
    );
    expect(run.code, run.err).toBe(0);
    const [withCopier, plain] = reqs.map((r) => simulate(scenarioTape(swaps), r, FLAT_OPTIONS));
    expect(run.out).toBe(
      `${JSON.stringify({ index: 0, summary: withCopier!.summary, copier: withCopier!.copier })}\n` +
        `${JSON.stringify({ index: 1, summary: plain!.summary })}\n`,
    );
    expect(JSON.parse(readFileSync(join(full, '0.json'), 'utf8'))).toEqual(withCopier);
  });
});

describe('the progress bar of long simulations and sweeps', () => {
  const capture = (errIsTty: boolean) => {
    let err = '';
    return { io: { out: () => {}, err: (t: string) => (err += t), errIsTty }, text: () => err };
  };

  it('draws on a terminal only when the whole percent changes, then clears its line', () => {
    const { io, text } = capture(true);
    const bar = progressBar(io, 'sweep', 'requests');
    for (let done = 0; done <= 1000; done++) bar.update(done, 1000);
    bar.finish();
    const draws = text()
      .split('\r')
      .filter((s) => s.startsWith('sweep'));
    expect(draws).toHaveLength(101); // 0 % to 100 %, once each
    expect(draws[50]).toBe(`sweep  [${'#'.repeat(15)}${'.'.repeat(15)}]  50%  500 / 1,000 requests`);
    expect(text().endsWith('\r\x1b[2K')).toBe(true);
  });

  it('writes nothing when standard error is not a terminal (logs, pipes, tests)', async () => {
    const { io, text } = capture(false);
    const bar = progressBar(io, 'simulate', 'swaps');
    bar.update(5, 10);
    bar.finish();
    expect(text()).toBe('');
  });
});
