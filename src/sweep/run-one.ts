import type { EngineOptions } from '../model/options.js';
import type { SimulatorRequest } from '../model/request.js';
import type { SimulationSummary, SimulatorResponse } from '../model/response.js';
import { replay, type ReplayResult } from '../engine/replay.js';
import type { IndexedTape } from '../engine/tape-index.js';
import { dealResults } from '../report/deal-results.js';
import { buildResponse, summaryJson } from '../report/response.js';
import { summarize } from '../report/summary.js';

/** What one setting of a sweep gives: its summary, and the whole response when asked for. */
export interface SweepOutput {
  readonly summary: SimulationSummary;
  readonly response?: SimulatorResponse;
}

/**
 * Runs one validated request of a sweep. Without `full` only the summary is built: the PnL
 * chart is skipped in the replay (the summary does not depend on it, and it costs a valuation
 * of the open deals after every trade) and no deal or trade is turned into JSON.
 */
export function runOne(tape: IndexedTape, request: SimulatorRequest, options: EngineOptions, full: boolean): SweepOutput {
  if (full) {
    const response = buildResponse(replay(tape, request, options), tape.tokens);
    return { summary: response.summary, response };
  }
  return { summary: summaryOf(replay(tape, request, options, { chart: false, trades: false })) };
}

/** The response's `summary` alone (the same numbers as `buildResponse`; a test holds them equal). */
export function summaryOf(run: ReplayResult): SimulationSummary {
  return summaryJson(summarize(dealResults(run), run.totals));
}
