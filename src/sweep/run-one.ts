import type { EngineOptions } from '../model/options.js';
import type { SimulatorRequest } from '../model/request.js';
import type { SimulationSummary, SimulatorResponse } from '../model/response.js';
import { replayFollowers } from '../engine/followers.js';
import { replay, type ReplayControl, type ReplayResult } from '../engine/replay.js';
import type { IndexedTape } from '../engine/tape-index.js';
import { dealResults } from '../report/deal-results.js';
import { buildResponse, summaryJson } from '../report/response.js';
import { summarize } from '../report/summary.js';

/** What one setting of a sweep gives: its summary, and the whole response when asked for. */
export interface SweepOutput {
  readonly summary: SimulationSummary;
  readonly response?: SimulatorResponse;
}

/** One request of a batch: its output, or what it threw. */
export type BatchOutcome = { readonly output: SweepOutput } | { readonly thrown: unknown };

/**
 * Runs one validated request of a sweep. Without `full` only the summary is built: the PnL
 * chart is skipped in the replay (the summary does not depend on it, and it costs a valuation
 * of the open deals after every trade) and no deal or trade is turned into JSON.
 */
export function runOne(tape: IndexedTape, request: SimulatorRequest, options: EngineOptions, full: boolean): SweepOutput {
  return outputOf(replay(tape, request, options, controlOf(full)), tape, full);
}

/**
 * Runs validated requests of a sweep together, as followers of one walk of the tape
 * (`replayFollowers`): each output is exactly {@link runOne}'s. A request the tape cannot serve
 * (no native prices for its fee, say) stops the walk of all; the batch is then run one request
 * at a time, so each gets its own output or error and the others are unaffected.
 */
export function runBatch(tape: IndexedTape, requests: readonly SimulatorRequest[], options: EngineOptions, full: boolean): BatchOutcome[] {
  let runs: ReplayResult[];
  try {
    runs = replayFollowers(tape, requests, options, controlOf(full));
  } catch {
    return requests.map((request) => {
      try {
        return { output: runOne(tape, request, options, full) };
      } catch (thrown) {
        return { thrown };
      }
    });
  }
  return runs.map((run) => ({ output: outputOf(run, tape, full) }));
}

function controlOf(full: boolean): ReplayControl {
  return full ? {} : { chart: false, trades: false };
}

function outputOf(run: ReplayResult, tape: IndexedTape, full: boolean): SweepOutput {
  if (!full) return { summary: summaryOf(run) };
  const response = buildResponse(run, tape.tokens);
  return { summary: response.summary, response };
}

/** The response's `summary` alone (the same numbers as `buildResponse`; a test holds them equal). */
export function summaryOf(run: ReplayResult): SimulationSummary {
  return summaryJson(summarize(dealResults(run), run.totals));
}
