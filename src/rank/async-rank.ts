/**
 * Ranking with the copying of the wallets handed to a runner: in this thread, or on queue
 * workers. The choice of candidates, their order, the sort and the out-of-sample verdict stay
 * here and are the local rank's own, so every runner gives the rows of `rankWallets` and
 * `outOfSample`, byte for byte; a runner only copies a list of wallets over one window.
 */
import { replay } from '../engine/replay.js';
import type { IndexedTape } from '../engine/tape-index.js';
import { resolveEngineOptions, type EngineOptionsInput } from '../model/options.js';
import type { SimulatorRequest } from '../model/request.js';
import { checkNetwork, prepare } from '../simulate.js';
import { summaryOf } from '../sweep/run-one.js';
import { judgeOutOfSample, splitPlan, type OutOfSample } from './out-of-sample.js';
import { candidateWallets, rankContext, selectRows, type Candidate, type RankContext, type RankedWallet, type RankOptions } from './rank.js';

/** What a runner is told besides the candidates: the window's request and the engine options as given. */
export interface CopySettings {
  readonly request: SimulatorRequest;
  readonly engineOptions: EngineOptionsInput;
}

/** Copies each candidate alone over the request's window: one row each, in the order given. */
export type CopyRunner = (
  context: RankContext,
  candidates: readonly Candidate[],
  settings: CopySettings,
  onProgress?: (done: number, total: number) => void,
) => Promise<RankedWallet[]>;

/** {@link rankWallets} with the wallets copied by `runner`. */
export async function rankWith(runner: CopyRunner, tape: IndexedTape, request: unknown, options: RankOptions = {}): Promise<RankedWallet[]> {
  const engineOptions = options.engineOptions ?? {};
  const { parsed } = prepare(request, engineOptions);
  checkNetwork(tape.network, parsed.network);
  const rows = await copyEachWith(runner, tape, { request: parsed, engineOptions }, options.wallets, options.onProgress);
  return selectRows(rows, options);
}

/** {@link outOfSample} with both windows' wallets copied by `runner`. */
export async function outOfSampleWith(runner: CopyRunner, tape: IndexedTape, request: unknown, split: string, options: RankOptions = {}): Promise<OutOfSample> {
  const engineOptions = options.engineOptions ?? {};
  const plan = splitPlan(request, split, engineOptions);
  checkNetwork(tape.network, plan.before.network);
  const progress = options.onProgress;
  const ranked = await copyEachWith(runner, tape, { request: plan.before, engineOptions }, options.wallets, progress && ((d, t) => progress(d, 2 * t)));
  const wallets = ranked.map((r) => r.wallet);
  const evaluated = await copyEachWith(runner, tape, { request: plan.after, engineOptions }, wallets, progress && ((d, t) => progress(t + d, 2 * t)));
  return judgeOutOfSample(plan, ranked, evaluated, options, (top) =>
    summaryOf(replay(tape, { ...plan.after, wallets: top }, plan.engineOptions, { chart: false, trades: false })),
  );
}

function copyEachWith(
  runner: CopyRunner,
  tape: IndexedTape,
  settings: CopySettings,
  only: readonly string[] | undefined,
  onProgress: ((done: number, total: number) => void) | undefined,
): Promise<RankedWallet[]> {
  const context = rankContext(tape, settings.request, resolveEngineOptions(settings.engineOptions));
  return runner(context, candidateWallets(context, only), settings, onProgress);
}
