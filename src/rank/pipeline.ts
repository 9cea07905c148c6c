/**
 * The rank's one pipeline: the checks, the choice of candidates and their order, the sort and the
 * out-of-sample verdict, written once as steps that hand each window's wallets to a copier and
 * go on with its rows. `rankWallets` and `outOfSample` copy them here, 500 to a walk of the tape;
 * `rankWith` and `outOfSampleWith` hand them to a runner (this thread with helper threads,
 * `RankHelpers`, or queue workers) and await its rows. A runner only copies a list of wallets
 * over one window, so every runner gives the same result, byte for byte.
 */
import { replay } from '../engine/replay.js';
import { indexTape, type IndexedTape } from '../engine/tape-index.js';
import type { EngineOptions, EngineOptionsInput } from '../model/options.js';
import type { SimulatorRequest, SimulatorRequestInput } from '../model/request.js';
import type { Tape, TapeInput } from '../model/tape.js';
import { copierJson } from '../report/response.js';
import { summaryOf } from '../report/run-summary.js';
import { checkNetwork, prepare } from '../simulate.js';
import { judgeOutOfSample, splitPlan, type OutOfSample } from './out-of-sample.js';
import type { RowsTape } from './tape-rows.js';
import {
  contenders,
  rowsAgree,
  screenApplies,
  WalletScreen,
  type ScreenBounds,
  type ScreenedMetric,
} from './screen.js';
import {
  candidateWallets,
  copyWallets,
  rankContext,
  rankRequest,
  selectRows,
  type Candidate,
  type RankContext,
  type RankedWallet,
  type RankOptions,
} from './rank.js';

/** What a runner is told besides the candidates: the window's request and the engine options as given. */
export interface CopySettings {
  readonly request: SimulatorRequest;
  readonly engineOptions: EngineOptionsInput;
}

/**
 * Copies each candidate alone over the request's window: one row each, in the order given. A
 * runner may also screen candidates (`screen`, screen.ts) on its threads; without, they are
 * screened in this thread.
 */
export type CopyRunner = ((
  context: RankContext,
  candidates: readonly Candidate[],
  settings: CopySettings,
  onProgress?: (done: number, total: number) => void,
) => Promise<RankedWallet[]>) & { readonly screen?: ScreenRunner };

/** Screens each candidate (`WalletScreen.bounds`): the figures of those the doubles decide. */
export type ScreenRunner = (
  context: RankContext,
  candidates: readonly Candidate[],
  settings: CopySettings,
  metric: ScreenedMetric,
) => Promise<ScreenBounds>;

/**
 * Ranks wallets by what copying each alone would have made: every wallet with a swap in the
 * request's window (or the given ones) is followed with the request's settings (its `wallets`
 * replaced by that one wallet), and the rows are sorted by a metric of the copier's result.
 * The copier's wallet is reported (`report_wallet`: each row's `copier`, its
 * `capital_required`), and with `balance` every copier starts with that much money. Each row's
 * summary and copier are exactly `simulate`'s for that wallet alone with those two members.
 *
 * Every candidate is a follower of a walk of the tape with up to 499 others (`replayFollowers`,
 * `copyWallets`): the work all followers share (prices, holdings, the swaps' decimals) is done
 * once a swap, and each swap is copied only by the follower of its wallet.
 *
 * @example
 * const rows = rankWallets(tape, request, { sortBy: 'roi_total', minDeals: 3, top: 20 });
 * rows[0].wallet; // the wallet whose copier made the best ROI
 */
export function rankWallets(
  tape: TapeInput | Tape | IndexedTape | RowsTape,
  request: SimulatorRequestInput | SimulatorRequest | unknown,
  options: RankOptions = {},
): RankedWallet[] {
  return copiedHere(rankSteps(tape, request, options));
}

/**
 * Ranks on the window before `split` (a `YYYY-MM-DD` day, the first of the second window) and
 * evaluates the same wallets after it: each row gains the after-split summary, the result gives
 * Spearman's correlation between the two rankings and the after-split result of copying the
 * before-split top `top` (default 10) wallets together.
 *
 * @example
 * const check = outOfSample(tape, request, '2024-03-12', { minDeals: 2, top: 5 });
 * check.spearman; // near 1: the past ranking held; near 0: it did not
 */
export function outOfSample(
  tape: TapeInput | Tape | IndexedTape,
  request: SimulatorRequestInput | SimulatorRequest | unknown,
  split: string,
  options: RankOptions = {},
): OutOfSample {
  return copiedHere(outOfSampleSteps(tape, request, split, options));
}

/** {@link rankWallets} with the wallets copied by `runner`. */
export function rankWith(
  runner: CopyRunner,
  tape: TapeInput | Tape | IndexedTape | RowsTape,
  request: unknown,
  options: RankOptions = {},
): Promise<RankedWallet[]> {
  return copiedWith(runner, rankSteps(tape, request, options));
}

/** {@link outOfSample} with both windows' wallets copied by `runner`. */
export function outOfSampleWith(
  runner: CopyRunner,
  tape: TapeInput | Tape | IndexedTape | RowsTape,
  request: unknown,
  split: string,
  options: RankOptions = {},
): Promise<OutOfSample> {
  return copiedWith(runner, outOfSampleSteps(tape, request, split, options));
}

/** One window's wallets to copy: what the steps ask of their copier. */
interface CopyOrder {
  readonly context: RankContext;
  readonly candidates: readonly Candidate[];
  readonly settings: CopySettings;
  readonly onProgress: ((done: number, total: number) => void) | undefined;
  /** Set when the wallets are to be screened by this metric, not copied: the step is then given their bounds. */
  readonly screen?: ScreenedMetric;
}

/**
 * The steps of a rank: they yield each window's wallets to copy (or screen), are given the rows
 * (or the bounds), and return the result.
 */
type Steps<Result> = Generator<CopyOrder, Result, RankedWallet[] | ScreenBounds>;

function* rankSteps(
  tape: TapeInput | Tape | IndexedTape | RowsTape,
  request: unknown,
  options: RankOptions,
): Steps<RankedWallet[]> {
  const engineOptions = options.engineOptions ?? {};
  const { parsed, engineOptions: resolved } = prepare(rankRequest(request, options.balance), engineOptions);
  const indexed = isRowsTape(tape) ? tape : indexTape(tape);
  checkNetwork(indexed.network, parsed.network);
  const settings = { request: parsed, engineOptions };
  const order = copyOrder(indexed, settings, resolved, options.wallets, options.onProgress);
  // With a small `top`, the screen leaves out the wallets that surely rank below it.
  if (screenApplies(request, options)) {
    const metric = (options.sortBy ?? 'pnl_total') as ScreenedMetric;
    const bounds = (yield { ...order, screen: metric }) as ScreenBounds;
    const verdict = contenders(order.candidates, bounds, options);
    if (verdict !== null) {
      const confirmed = (yield { ...order, candidates: verdict.confirm }) as RankedWallet[];
      if (rowsAgree(confirmed, verdict, metric)) return selectRows(confirmed, options);
    }
  }
  const rows = (yield order) as RankedWallet[];
  return selectRows(rows, options);
}

function* outOfSampleSteps(
  tape: TapeInput | Tape | IndexedTape | RowsTape,
  request: unknown,
  split: string,
  options: RankOptions,
): Steps<OutOfSample> {
  const engineOptions = options.engineOptions ?? {};
  const plan = splitPlan(rankRequest(request, options.balance), split, engineOptions);
  const indexed = isRowsTape(tape) ? tape : indexTape(tape);
  checkNetwork(indexed.network, plan.before.network);
  // Progress over both windows: the first half, then the second.
  const progress = options.onProgress;
  const firstHalf = progress && ((d: number, t: number) => progress(d, 2 * t));
  const secondHalf = progress && ((d: number, t: number) => progress(t + d, 2 * t));
  const before = { request: plan.before, engineOptions };
  const ranked = (yield copyOrder(indexed, before, plan.engineOptions, options.wallets, firstHalf)) as RankedWallet[];
  const wallets = ranked.map((r) => r.wallet);
  const after = { request: plan.after, engineOptions };
  const evaluated = (yield copyOrder(indexed, after, plan.engineOptions, wallets, secondHalf)) as RankedWallet[];
  return judgeOutOfSample(plan, ranked, evaluated, options, (top) => {
    const whole = isRowsTape(indexed) ? indexed.indexed() : indexed;
    const run = replay(whole, { ...plan.after, wallets: top }, plan.engineOptions, { chart: false, trades: false });
    return { summary: summaryOf(run), copier: copierJson(run.copier!) };
  });
}

/** The candidates of one window, in address order, and what their copier is told. */
function copyOrder(
  tape: IndexedTape | RowsTape,
  settings: CopySettings,
  engineOptions: EngineOptions,
  only: readonly string[] | undefined,
  onProgress: ((done: number, total: number) => void) | undefined,
): CopyOrder {
  const context = rankContext(tape, settings.request, engineOptions);
  return { context, candidates: candidateWallets(context, only), settings, onProgress };
}

function isRowsTape(tape: unknown): tape is RowsTape {
  return (tape as { kind?: unknown }).kind === 'rows-tape';
}

/** The steps run with each window's wallets copied (or screened) in this thread. */
function copiedHere<Result>(steps: Steps<Result>): Result {
  let step = steps.next();
  while (!step.done) {
    const { context, candidates, onProgress, screen } = step.value;
    step = steps.next(
      screen === undefined
        ? copyWallets(context, candidates, onProgress)
        : new WalletScreen(context).bounds(candidates, screen),
    );
  }
  return step.value;
}

/** The steps run with each window's wallets copied (and screened, when it can) by `runner`. */
async function copiedWith<Result>(runner: CopyRunner, steps: Steps<Result>): Promise<Result> {
  let step = steps.next();
  while (!step.done) {
    const { context, candidates, settings, onProgress, screen } = step.value;
    if (screen === undefined) step = steps.next(await runner(context, candidates, settings, onProgress));
    else if (runner.screen !== undefined) step = steps.next(await runner.screen(context, candidates, settings, screen));
    else step = steps.next(new WalletScreen(context).bounds(candidates, screen));
  }
  return step.value;
}
