import { Bench } from 'tinybench';
import { resolveEngineOptions } from '../../src/model/options.js';
import type { SimulatorRequest } from '../../src/model/request.js';
import { NO_STRATEGY, type Strategy } from '../../src/model/strategy.js';
import { replay } from '../../src/engine/replay.js';
import type { IndexedTape } from '../../src/engine/tape-index.js';
import { row, type Row } from './row.js';

/** A bot's whole strategy (strategy extensions): every model of the execution side at work. */
export const FULL_STRATEGY: NonNullable<SimulatorRequest['strategy']> = {
  copy_delay_seconds: 5,
  fixed_buy_amount: null,
  min_leader_buy_usd: 1,
  min_liquidity_usd: 100,
  max_token_age_hours: 8760,
  take_profit: [
    { roi: 50, sell_percent: 25 },
    { roi: 100, sell_percent: 25 },
    { roi: 200, sell_percent: 50 },
  ],
  stop_loss_percent: 50,
  trailing_stop_percent: 40,
  max_hold_hours: 48,
  report_skipped: false,
};

/**
 * Every member of the copier's wallet (model 3.0) on: a balance, a reserve, an open-deal limit,
 * a slippage tolerance, 5 % dropped transactions with one retry, 20 % sandwiches, the leaders'
 * report.
 */
export const COPIER_STRATEGY: Partial<Strategy> = {
  starting_balance_usd: 10_000_000,
  reserve_usd: 1_000,
  max_open_deals: 1_000,
  slippage_tolerance_percent: 10,
  failed_transaction_percent: 5,
  retries: 1,
  retry_delay_seconds: 2,
  sandwich_percent: 20,
  random_seed: 7,
  report_leaders: true,
};

/**
 * The replay loop with the tape already in memory (tinybench, best run):
 * - market swaps: a request whose wallets never trade, so every swap is market data;
 * - follower trades: the request following the leaders, with the PnL chart and the trade records
 *   (as `simulate`) and without them (as a sweep's summary);
 * - the same with {@link FULL_STRATEGY}, against the plain rate.
 *
 * The machine's speed drifts from minute to minute, so the replays run in turns, one of
 * each a round (a tinybench run of one iteration a task, after one run to warm up), and each
 * keeps its best round: a slow minute cannot fall on one of them alone.
 */
export async function loopSuite(tape: IndexedTape, request: SimulatorRequest, rounds: number): Promise<Row[]> {
  const options = resolveEngineOptions({});
  const market: SimulatorRequest = { ...request, wallets: ['NoSuchWallet1111111111111111111111111111111'] };
  const withStrategy: SimulatorRequest = { ...request, strategy: FULL_STRATEGY };
  const withCopier: SimulatorRequest = { ...request, strategy: { ...NO_STRATEGY, ...COPIER_STRATEGY } };
  let trades = 0;
  let strategyTrades = 0;
  let copierTrades = 0;
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
    'full strategy, chart': () => {
      strategyTrades = replay(tape, withStrategy, options).deals.reduce((n, d) => n + d.tradeCount, 0);
    },
    "copier's wallet, chart": () => {
      copierTrades = replay(tape, withCopier, options).deals.reduce((n, d) => n + d.tradeCount, 0);
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
    row('loop', 'follower trades/s (with chart)', trades / best('followed, chart'), 'trades/s', {
      atLeast: 200_000,
      note: followed,
    }),
    row('loop', 'follower trades/s (summary only)', trades / best('followed, summary'), 'trades/s', {
      atLeast: 200_000,
      note: followed,
    }),
    row('loop', 'ns per swap, followed (with chart)', (best('followed, chart') * 1e9) / swaps, 'ns'),
    row(
      'loop',
      'follower trades/s, full strategy (with chart)',
      strategyTrades / best('full strategy, chart'),
      'trades/s',
      {
        note: `${strategyTrades.toLocaleString('en-US')} follower trades: 5 s delay, a 3-level take-profit ladder, stop loss, trailing stop, max hold, filters; ${runs}`,
      },
    ),
    row(
      'loop',
      'full strategy against plain, trades/s (with chart)',
      strategyTrades / best('full strategy, chart') / (trades / best('followed, chart')),
      '×',
      {
        atLeast: 0.7,
        note: 'the strategy extensions cost at most 30 % of the follower trade rate',
      },
    ),
    row(
      'loop',
      "follower trades/s, copier's wallet (with chart)",
      copierTrades / best("copier's wallet, chart"),
      'trades/s',
      {
        note: `${copierTrades.toLocaleString('en-US')} follower trades: balance, reserve, max open deals, 10 % tolerance, 5 % failures, 1 retry, 20 % sandwiches, leaders; ${runs}`,
      },
    ),
    row(
      'loop',
      "copier's wallet against plain, trades/s (with chart)",
      copierTrades / best("copier's wallet, chart") / (trades / best('followed, chart')),
      '×',
      {
        atLeast: 0.8,
        note: "the copier's wallet costs at most 20 % of the follower trade rate",
      },
    ),
  ];
}
