import { Bench } from 'tinybench';
import { resolveEngineOptions } from '../../src/model/options.js';
import type { SimulatorRequest } from '../../src/model/request.js';
import { replay } from '../../src/engine/replay.js';
import type { IndexedTape } from '../../src/engine/tape-index.js';
import { row, type Row } from './row.js';

/**
 * The replay loop with the tape already in memory (tinybench, best run):
 * - market swaps: a request whose wallets never trade, so every swap is market data;
 * - follower trades: the request following the leaders, with the PnL chart (as `simulate`)
 *   and without it (as a sweep's summary).
 */
export async function loopSuite(tape: IndexedTape, request: SimulatorRequest, iterations: number): Promise<Row[]> {
  const options = resolveEngineOptions({});
  const market: SimulatorRequest = { ...request, wallets: ['NoSuchWallet1111111111111111111111111111111'] };
  let trades = 0;
  const bench = new Bench({ iterations, time: 0, warmupIterations: 1, warmupTime: 0 });
  bench
    .add('market', () => {
      replay(tape, market, options);
    })
    .add('followed, chart', () => {
      trades = replay(tape, request, options).deals.reduce((n, d) => n + d.tradeCount, 0);
    })
    .add('followed, summary', () => {
      replay(tape, request, options, { chart: false, trades: false });
    });
  await bench.run();
  const best = (name: string): number => {
    const result = bench.getTask(name)?.result;
    if (result === undefined || result.error !== undefined) throw result?.error ?? new Error(`no result for ${name}`);
    return result.latency.min / 1000; // seconds
  };
  const swaps = tape.order.length;
  const runs = `best of ${iterations}`;
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
