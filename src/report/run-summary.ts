import type { ReplayResult } from '../engine/replay.js';
import type { SimulationSummary } from '../model/response.js';
import { dealResults } from './deal-results.js';
import { summaryJson } from './response.js';
import { summarize, type SummaryFold } from './summary.js';

/**
 * The response's `summary` alone, from a summary-only replay (the same numbers as
 * `buildResponse`; a test holds them equal): what a sweep, the latency curve and the rank's
 * out-of-sample check keep of a run. `closed`: the fold the replay gave its closed deals
 * (`ReplayControl.closedDeals`), when it did.
 */
export function summaryOf(run: ReplayResult, closed?: SummaryFold): SimulationSummary {
  return summaryJson(summarize(dealResults(run), run.totals, closed));
}
