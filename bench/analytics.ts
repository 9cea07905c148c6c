/**
 * The wallet analytics' speed over a large tape (tinybench):
 *   node dist/bench/analytics.js [--swaps 1000000] [--wallets 20000] [--tokens 2000] [--iterations 3]
 *
 * - index tape: validating and interning the tape (the engine's indexTape), for scale;
 * - analytics index: the one indexed pass giving every wallet's own deals and indicator totals
 *   per period (what the wallet list sorts by);
 * - indicators, every wallet: the initial indicator map of every wallet from that index;
 * - wallets list page: sorting every wallet and the first page, with 30 followers simulated
 *   (on a fresh index each run, so nothing is cached);
 * - deals of the busiest wallet: its deals read (page 1), its follower simulated (fresh index);
 * - wallets list by `following` pnl_total: every listed wallet's follower from one walk of the
 *   tape, then the sort (fresh index);
 * - followers one by one: the same followers, each simulated alone over its sub-tape (what the
 *   list would cost without the one walk), for the first 2,000 listed wallets (fresh index).
 */
import { Bench } from 'tinybench';
import { z } from 'zod';
import { indexTape } from '../src/index.js';
import { buildAnalyticsIndex, listWallets, walletDeals, type AnalyticsIndex } from '../src/analytics.js';
import { indicatorMap } from '../src/analytics/indicators.js';
import { analyticsTape } from './analytics-tape.js';
import { count, topLevelOptions, whole } from '../tools/script-args.js';

const USAGE = `Usage: node dist/bench/analytics.js [options]

The wallet analytics' speed over a generated tape (tinybench).

  --swaps N        swaps in the tape (default 1000000; 100k and 1m work too)
  --wallets N      wallets (default 20000)
  --tokens N       tokens (default 2000)
  --iterations N   runs of each task (default 3)`;

const { swaps, wallets, tokens, iterations } = topLevelOptions(
  'analytics',
  {
    swaps: { type: 'string', default: '1000000' },
    wallets: { type: 'string', default: '20000' },
    tokens: { type: 'string', default: '2000' },
    iterations: { type: 'string', default: '3' },
  },
  z.object({ swaps: count(1), wallets: count(1), tokens: count(1), iterations: whole(1) }),
  USAGE,
);
const shape = { swaps, wallets, tokens };

const generated = Date.now();
const tape = analyticsTape(shape);
console.log(
  `tape: ${shape.swaps} swaps, ${shape.wallets} wallets, ${shape.tokens} tokens (generated in ${Date.now() - generated} ms)`,
);
const indexed = indexTape(tape);
let index: AnalyticsIndex = buildAnalyticsIndex(indexed);
const listed = index.wallets.filter((w) => w !== undefined).length;
const busiest = index.wallets.reduce((a, w) =>
  w !== undefined && (a === undefined || w.totals.all.deals > a.totals.all.deals) ? w : a,
);
console.log(`wallets with swaps: ${listed}; busiest: ${busiest!.address} with ${busiest!.totals.all.deals} deals`);

/** A new index for each run of a task that would otherwise find its answers cached. */
let fresh = index;
const renew = (): void => void (fresh = buildAnalyticsIndex(indexed));

/** CPU time per task (the machine may be shared: wall time alone can mislead). */
const cpu = new Map<string, number[]>();
let cpuStart = process.cpuUsage();
function task(name: string, run: () => void, before?: () => void): [string, () => void, object] {
  return [
    name,
    run,
    {
      beforeEach: () => {
        before?.();
        cpuStart = process.cpuUsage();
      },
      afterEach: () => {
        const used = process.cpuUsage(cpuStart);
        cpu.set(name, [...(cpu.get(name) ?? []), (used.user + used.system) / 1000]);
      },
    },
  ];
}

/** Followers simulated one by one in the baseline task (all of them would take minutes). */
const ONE_BY_ONE = 2_000;

const bench = new Bench({ iterations, time: 0, warmup: false, throws: true });
const tasks = [
  task('index tape (validate + intern)', () => void indexTape(tape)),
  task('analytics index (one pass, every wallet)', () => void (index = buildAnalyticsIndex(indexed))),
  task('indicators, every wallet (initial)', () => {
    for (const w of index.wallets) if (w !== undefined) indicatorMap(w.totals, null);
  }),
  task('wallets list, page 1 (sort + 30 followers)', () => void listWallets(fresh, {}), renew),
  task(
    'deals of the busiest wallet (page 1 + its follower)',
    () => void walletDeals(fresh, busiest!.address, { network: 'sol' }),
    renew,
  ),
  task(
    `wallets list by following pnl_total (${listed} followers, one walk)`,
    () => void listWallets(fresh, { sort_by: { indicator: 'pnl_total', period: 'all', value: 'following' } }),
    renew,
  ),
  task(
    `followers one by one (first ${Math.min(ONE_BY_ONE, listed)} wallets)`,
    () => {
      let n = 0;
      for (const w of fresh.wallets) if (w !== undefined && n++ < ONE_BY_ONE) fresh.follower(w);
    },
    renew,
  ),
];
for (const [name, run, options] of tasks) bench.add(name, run, options);
await bench.run();
console.table(bench.table());
for (const t of bench.tasks) {
  const latency = t.result?.latency;
  const cpuMs = cpu.get(t.name) ?? [];
  const cpuMean = cpuMs.reduce((a, b) => a + b, 0) / Math.max(1, cpuMs.length);
  if (latency !== undefined)
    console.log(
      `${t.name}: mean ${latency.mean.toFixed(0)} ms wall, ${cpuMean.toFixed(0)} ms CPU, ${latency.samples.length} runs`,
    );
}
