/**
 * `copysim rank --queue`: the local rank's candidates and order, with the copying of the wallets
 * done by queue workers in chunks (the `rank` job kind). The producer holds the tape too: it
 * chooses the candidates (every wallet with a swap in the window) and, for an out-of-sample
 * check, runs the one simulation of the top wallets together.
 */
import { replay } from '../engine/replay.js';
import type { IndexedTape } from '../engine/tape-index.js';
import { InputError } from '../model/errors.js';
import type { EngineOptions, EngineOptionsInput } from '../model/options.js';
import type { SimulatorRequest } from '../model/request.js';
import { judgeOutOfSample, splitPlan, type OutOfSample } from '../rank/out-of-sample.js';
import { candidateWallets, rankContext, selectRows, type RankedWallet, type RankOptions } from '../rank/rank.js';
import { checkNetwork, prepare } from '../simulate.js';
import { summaryOf } from '../sweep/run-one.js';
import { runOnQueue } from './producer.js';
import type { RankJobSettings } from './rank-kind.js';

export interface QueueRankOptions extends RankOptions {
  /** The Redis URL the workers listen on. */
  readonly url: string;
  /** Wallets a job (default: about a hundred jobs). */
  readonly chunkSize?: number;
  readonly onNotice?: (line: string) => void;
}

/**
 * {@link rankWallets} with the wallets copied by queue workers: the same rows, in the same order.
 * `tapePath` is where the workers read the tape (the same path on every machine), `tape` the
 * producer's own copy of it.
 */
export async function rankOnQueue(tapePath: string, tape: IndexedTape, request: unknown, options: QueueRankOptions): Promise<RankedWallet[]> {
  const { parsed, engineOptions } = prepare(request, options.engineOptions ?? {});
  checkNetwork(tape.network, parsed.network);
  const rows = await copyEachOnQueue(tapePath, tape, parsed, engineOptions, options.wallets, options, options.onProgress);
  return selectRows(rows, options);
}

/** {@link outOfSample} with both windows' wallets copied by queue workers. */
export async function outOfSampleOnQueue(
  tapePath: string,
  tape: IndexedTape,
  request: unknown,
  split: string,
  options: QueueRankOptions,
): Promise<OutOfSample> {
  const plan = splitPlan(request, split, options.engineOptions ?? {});
  checkNetwork(tape.network, plan.before.network);
  const progress = options.onProgress;
  const ranked = await copyEachOnQueue(tapePath, tape, plan.before, plan.engineOptions, options.wallets, options, progress && ((d, t) => progress(d, 2 * t)));
  const wallets = ranked.map((r) => r.wallet);
  const evaluated = await copyEachOnQueue(tapePath, tape, plan.after, plan.engineOptions, wallets, options, progress && ((d, t) => progress(t + d, 2 * t)));
  return judgeOutOfSample(plan, ranked, evaluated, options, (top) =>
    summaryOf(replay(tape, { ...plan.after, wallets: top }, plan.engineOptions, { chart: false, trades: false })),
  );
}

async function copyEachOnQueue(
  tapePath: string,
  tape: IndexedTape,
  request: SimulatorRequest,
  engineOptions: EngineOptions,
  only: readonly string[] | undefined,
  queue: QueueRankOptions,
  onProgress: ((done: number, total: number) => void) | undefined,
): Promise<RankedWallet[]> {
  const candidates = candidateWallets(rankContext(tape, request, engineOptions), only);
  const rows: RankedWallet[] = [];
  const settings: RankJobSettings = { request, engineOptions: queue.engineOptions ?? ({} satisfies EngineOptionsInput) };
  await runOnQueue<RankedWallet>({
    url: queue.url,
    kind: 'rank',
    tapePath,
    settings,
    inputs: candidates.map((c) => c.address),
    onResult: (_, row) => rows.push(row),
    inputFailure: (index, message) => new InputError(`wallet ${candidates[index]!.address}: ${message}`, { source: 'wallets' }),
    ...(queue.chunkSize !== undefined ? { chunkSize: queue.chunkSize } : {}),
    ...(onProgress !== undefined ? { onProgress } : {}),
    ...(queue.onNotice !== undefined ? { onNotice: queue.onNotice } : {}),
  });
  return rows;
}
