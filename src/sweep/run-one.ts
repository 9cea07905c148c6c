import type { EngineOptions } from '../model/options.js';
import type { SimulatorRequest } from '../model/request.js';
import type { CopierResultJson, SimulationSummary, SimulatorResponse } from '../model/response.js';
import { replayFollowers } from '../engine/followers.js';
import { replay, type ReplayControl, type ReplayResult } from '../engine/replay.js';
import type { IndexedTape } from '../engine/tape-index.js';
import { buildResponse, copierJson } from '../report/response.js';
import { summaryOf } from '../report/run-summary.js';
import { SummaryFold } from '../report/summary.js';
import { SharedRuns } from './shared-runs.js';
import {
  ClosedDeals,
  leadDeals,
  type LeadDeals,
  leadSummary,
  slicedSummary,
  sliceable,
  tokensToReplay,
} from './token-slices.js';

/**
 * What one setting of a sweep gives: its summary, the copier's wallet when the request reports
 * it (copier-wallet.md 7: any of its members set), and the whole response when asked for.
 */
export interface SweepOutput {
  readonly summary: SimulationSummary;
  readonly copier?: CopierResultJson;
  readonly response?: SimulatorResponse;
}

/**
 * One request of a batch: its output and the least `max_dupe_buy_times` that gives the same run
 * (`ReplayResult.leastDupeLimit`, for the sweep's `SharedRuns`), or what it threw.
 */
export type BatchOutcome =
  | { readonly output: SweepOutput; readonly leastDupeLimit: number }
  | { readonly thrown: unknown };

/**
 * Runs one validated request of a sweep. Without `full` only the summary is built: the PnL
 * chart is skipped in the replay (the summary does not depend on it, and it costs a valuation
 * of the open deals after every trade) and no deal or trade is turned into JSON.
 */
export function runOne(
  tape: IndexedTape,
  request: SimulatorRequest,
  options: EngineOptions,
  full: boolean,
): SweepOutput {
  return runAlone(tape, request, options, full).output;
}

/** {@link runOne} with the run's {@link BatchOutcome}. */
function runAlone(
  tape: IndexedTape,
  request: SimulatorRequest,
  options: EngineOptions,
  full: boolean,
): Extract<BatchOutcome, { output: SweepOutput }> {
  const folds: SummaryFold[] = [];
  return answerOf(replay(tape, request, options, controlOf(full, folds)), tape, folds[0]);
}

/**
 * Requests replayed together in one walk of the tape. The walk's shared work (prices, holdings)
 * is small beside a follower's own, and the followers' open deals all live until the walk moves
 * past them (a summary's closed deals are folded away as they close): the hosts collect the
 * young generation after a walk of a large tape (their `afterWalk`, `collectYoungGeneration` in
 * src/threads/). Four requests a walk measured no better than two (a heavy sweep request: 639
 * against 633 M instructions); 24 spent 30 % of the time collecting garbage when each kept its
 * closed deals.
 */
export const FOLLOWERS_A_WALK = 2;

/**
 * Runs validated requests of a sweep, {@link FOLLOWERS_A_WALK} at a time as the followers of
 * one walk of the tape (`replayFollowers`): each output is exactly {@link runOne}'s. A request
 * the tape cannot serve (no native prices for its fee, say) stops its walk; that walk's
 * requests are then run one at a time, so each gets its own output or error. `afterWalk` is
 * called after each walk: the host's moment for work of its own that changes no result.
 */
export function runBatch(
  tape: IndexedTape,
  requests: readonly SimulatorRequest[],
  options: EngineOptions,
  full: boolean,
  afterWalk?: () => void,
): BatchOutcome[] {
  const outcomes: BatchOutcome[] = [];
  for (let first = 0; first < requests.length; first += FOLLOWERS_A_WALK) {
    outcomes.push(...walkTogether(tape, requests.slice(first, first + FOLLOWERS_A_WALK), options, full));
    afterWalk?.();
  }
  return outcomes;
}

/**
 * {@link runBatch} in the order of a {@link SharedRuns} over the batch: the largest dupe limit of
 * each group first, its output the answer of the members from its least dupe limit up. The
 * other members run too; without `full`, those without a strategy only in the tokens where the
 * lead let through a dupe buy their limit refuses, the lead's deals taken for the rest
 * (`token-slices.ts`). Each outcome's output is exactly {@link runBatch}'s. For a host handed a
 * whole batch at once (a sweep's worker thread, a queue worker's chunk). A request that fails
 * answers only for itself. A batch whose groups hold at most {@link FOLLOWERS_A_WALK} requests
 * each runs as {@link runBatch} does: a lead alone in its walk, then a member replaying most
 * tokens, would cost more than the two walking together.
 */
export function runBatchShared(
  tape: IndexedTape,
  requests: readonly SimulatorRequest[],
  options: EngineOptions,
  full: boolean,
  afterWalk?: () => void,
): BatchOutcome[] {
  const plan = new SharedRuns(requests);
  // A group of a walk's size or less gains nothing: its requests walk together as they are.
  if (plan.largestGroup <= FOLLOWERS_A_WALK) return runBatch(tape, requests, options, full, afterWalk);
  const outcomes = new Array<BatchOutcome>(requests.length);
  /** By lead slot: what its run left for its members (null: nothing, they run whole). */
  const leads = new Map<number, LeadDeals | null>();
  for (let slots = plan.take(FOLLOWERS_A_WALK); slots.length > 0; slots = plan.take(FOLLOWERS_A_WALK)) {
    const batch = slots.map((slot) => requests[slot]!);
    const ran = full
      ? walkTogether(tape, batch, options, full).map((outcome) => ({ outcome, lead: null }))
      : walkSliced(
          tape,
          batch,
          options,
          slots.map((slot) => sliceOf(plan, leads, slot, requests[slot]!)),
        );
    afterWalk?.();
    ran.forEach(({ outcome, lead }, k) => {
      const slot = slots[k]!;
      outcomes[slot] = outcome;
      if (plan.leadOf(slot) !== slot) return;
      leads.set(slot, lead);
      // A failed run answers nobody else: its group's members run on their own.
      const least = 'output' in outcome ? outcome.leastDupeLimit : Number.POSITIVE_INFINITY;
      for (const shared of plan.answered(slot, least)) outcomes[shared] = outcome;
    });
  }
  return outcomes;
}

/**
 * How a request of a batch runs: null when it cannot be sliced (a strategy), or when it is a
 * member whose lead left nothing (the lead failed): a plain summary run; a lead keeps its deals
 * by token; a member replays the tokens its lead's run does not answer.
 */
function sliceOf(
  plan: SharedRuns,
  leads: ReadonlyMap<number, LeadDeals | null>,
  slot: number,
  request: SimulatorRequest,
): Slice | null {
  if (!sliceable(request)) return null;
  const leadSlot = plan.leadOf(slot);
  if (leadSlot === slot) return WHOLE;
  const lead = leads.get(leadSlot) ?? null;
  return lead === null ? null : { lead, tokens: tokensToReplay(lead, request.max_dupe_buy_times) };
}

/** A run sliced by token: with `lead`, only the tokens marked in `tokens`; else a lead's: every token, deals kept. */
type Slice = { readonly lead: null; readonly tokens: null } | { readonly lead: LeadDeals; readonly tokens: Uint8Array };

const WHOLE: Slice = { lead: null, tokens: null };

/** One walk of summary-only runs, each sliced as `slices` say (null: as {@link walkTogether} runs it). */
function walkSliced(
  tape: IndexedTape,
  requests: readonly SimulatorRequest[],
  options: EngineOptions,
  slices: readonly (Slice | null)[],
): { readonly outcome: BatchOutcome; readonly lead: LeadDeals | null }[] {
  const folds: SummaryFold[] = [];
  const closed: ClosedDeals[] = [];
  let runs: ReplayResult[];
  try {
    runs = replayFollowers(tape, requests, options, {
      chart: false,
      trades: false,
      // Only a lead keeps its figures by token: its members take its deals, not theirs.
      byToken: (f) => slices[f]?.lead === null,
      closedDeals: (f) => (slices[f] === null ? (folds[f] = new SummaryFold()) : (closed[f] = new ClosedDeals())),
      onlyTokens: (f) => slices[f]?.tokens ?? undefined,
    });
  } catch {
    // Each on its own, whole: a member of a lead that failed runs whole too.
    return eachAlone(tape, requests, options, false).map((outcome) => ({ outcome, lead: null }));
  }
  return runs.map((run, k) => {
    const slice = slices[k]!;
    if (slice === null) return { outcome: answerOf(run, tape, folds[k]), lead: null };
    if (slice.lead === null) {
      const lead = leadDeals(run, closed[k]!);
      return { outcome: { output: { summary: leadSummary(run, lead) }, leastDupeLimit: run.leastDupeLimit }, lead };
    }
    // A sliced run's own least limit covers only the tokens it replayed: it answers for itself alone.
    const summary = slicedSummary(run, closed[k]!, slice.lead, slice.tokens);
    return { outcome: { output: { summary }, leastDupeLimit: requests[k]!.max_dupe_buy_times }, lead: null };
  });
}

function walkTogether(
  tape: IndexedTape,
  requests: readonly SimulatorRequest[],
  options: EngineOptions,
  full: boolean,
): BatchOutcome[] {
  let runs: ReplayResult[];
  const folds: SummaryFold[] = [];
  try {
    runs = replayFollowers(tape, requests, options, controlOf(full, folds));
  } catch {
    return eachAlone(tape, requests, options, full);
  }
  return runs.map((run, k) => answerOf(run, tape, folds[k]));
}

/** Requests whose walk together failed, each replayed on its own: its output or what it threw. */
function eachAlone(
  tape: IndexedTape,
  requests: readonly SimulatorRequest[],
  options: EngineOptions,
  full: boolean,
): BatchOutcome[] {
  return requests.map((request) => {
    try {
      return runAlone(tape, request, options, full);
    } catch (thrown) {
      return { thrown };
    }
  });
}

function answerOf(
  run: ReplayResult,
  tape: IndexedTape,
  fold: SummaryFold | undefined,
): Extract<BatchOutcome, { output: SweepOutput }> {
  return { output: outputOf(run, tape, fold), leastDupeLimit: run.leastDupeLimit };
}

/**
 * What a sweep's replay keeps: everything for a whole response (`full`); else no chart, no
 * trades, and no closed deal, each folded as it closes into its follower's summary, in `folds`.
 */
function controlOf(full: boolean, folds: SummaryFold[]): ReplayControl {
  if (full) return {};
  return { chart: false, trades: false, closedDeals: (follower) => (folds[follower] = new SummaryFold()) };
}

/** The output of a replay: its summary from `fold`, else the whole response. */
function outputOf(run: ReplayResult, tape: IndexedTape, fold: SummaryFold | undefined): SweepOutput {
  if (fold !== undefined) {
    const summary = summaryOf(run, fold);
    return run.copier === null ? { summary } : { summary, copier: copierJson(run.copier) };
  }
  const response = buildResponse(run, tape.tokens);
  const { summary, copier } = response;
  return copier === undefined ? { summary, response } : { summary, copier, response };
}
