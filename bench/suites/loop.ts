import { Bench } from 'tinybench';
import { resolveEngineOptions } from '../../src/model/options.js';
import type { SimulatorRequest } from '../../src/model/request.js';
import { replay } from '../../src/engine/replay.js';
import type { IndexedTape } from '../../src/engine/tape-index.js';
import { row, type Row } from './row.js';

/**
 * The replay loop with the tape already in memory (tinybench, best run):
 * - market swaps: a request whose wallets never trade, so every swap is market data;
 * - follower trades: the request following the leaders, with the PnL chart and the trade records
 *   (as `simulate`) and without them (as a sweep's summary).
 *
 * The machine's speed drifts from minute to minute, so the three replays run in turns, one of
 * each a round (a tinybench run of one iteration a task, after one run to warm up), and each
 * keeps its best round: a slow minute cannot fall on one of them alone.
 */
export async function loopSuite(tape: IndexedTape, request: SimulatorRequest, rounds: number): Promise<Row[]> {
  const options = resolveEngineOptions({});
  const market: SimulatorRequest = { ...request, wallets: ['NoSuchWallet1111111111111111111111111111111'] };
  let trades = 0;
  const tasks: Record<string, () => void> = {
    market: () => {
      replay(tape, market, options);
    },
    'followed, chart': () => {
      trades = replay(tape, request, options).deals.reduce((n, d) => n + d.tradeCount, 0);
    },
    'followed, summary': () => {
      replay(tape, request, options, { chart: false, trades: false });
    },
  };
  const bestSeconds = new Map<string, number>();
  for (let round = 0; round <= rounds; round++) {
    const warmUp = round === 0;
    const bench = new Bench({ iterations: 1, time: 0, warmupIterations: 0, warmupTime: 0 });
    for (const [name, fn] of Object.entries(tasks)) bench.add(name, fn);
    await bench.run();
    if (warmUp) continue;
    for (const name of Object.keys(tasks)) {
      const result = bench.getTask(name)?.result;
      if (result === undefined || result.error !== undefined) throw result?.error ?? new Error(`no result for ${name}`);
      const seconds = result.latency.min / 1000;
      bestSeconds.set(name, Math.min(bestSeconds.get(name) ?? Infinity, seconds));
    }
  }
  const best = (name: string): number => bestSeconds.get(name)!;
  const swaps = tape.order.length;
  const runs = `best of ${rounds} rounds in turns`;
  const followed = `${request.wallets.length} leaders followed, ${trades.toLocaleString('en-US')} follower trades, ${runs}`;
  return [
    row('loop', 'market swaps/s', swaps / best('market'), 'swaps/s', {
      atLeast: 1_000_000,
      note: `${swaps.toLocaleString('en-US')} swaps, no wallet followed, ${runs}`,
    }),
    row('loop', 'ns per market swap', (best('market') * 1e9) / swaps, 'ns'),
    row('loop', 'follower trades/s (with chart)', trades / best('followed, chart'), 'trades/s', { atLeast: 200_000, note: followed }),
    row('loop', 'follower trades/s (summary only)', trades / best('followed, summary'), 'trades/s', { atLeast: 200_000, note: followed }),
    row('loop', 'ns per swap, followed (with chart)', (best('followed, chart') * 1e9) / swaps, 'ns'),
  ];
}
