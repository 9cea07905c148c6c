import { replay } from '../engine/replay.js';
import { indexTape, type IndexedTape } from '../engine/tape-index.js';
import { InputError } from '../model/errors.js';
import type { EngineOptionsInput } from '../model/options.js';
import type { SimulatorRequest, SimulatorRequestInput } from '../model/request.js';
import { checkNetwork, prepare } from '../simulate.js';
import { summaryOf } from '../report/run-summary.js';
import type { CopierResultJson, SimulationSummary } from '../model/response.js';
import { copierJson } from '../report/response.js';
import { NO_STRATEGY } from '../model/strategy.js';
import type { Tape, TapeInput } from '../model/tape.js';

/** The delays of `copysim latency` when none are given, in seconds. */
export const DEFAULT_DELAYS: readonly number[] = [0, 1, 2, 5, 10, 30, 60, 120];

/** One point of the latency curve: the request's result with copies landing `delay_seconds` late. */
export interface LatencyPoint {
  readonly delay_seconds: number;
  readonly pnl_total: number;
  readonly roi_total: number;
  /** Follower trades, buys and sells. */
  readonly trades: number;
  readonly deals: number;
  /** `pnl_total / pnl_total at delay 0`; null when the zero-delay PnL is not positive (nothing to keep). */
  readonly pnl_kept: number | null;
  /** The copier's wallet at this delay, when the request reports it (model 3.0: any of its members set). */
  readonly copier?: CopierResultJson;
}

/** The latency curve of a request over one tape. */
export interface LatencyCurve {
  readonly points: readonly LatencyPoint[];
  /** `pnl_total` with no delay, the curve's reference. */
  readonly zero_delay_pnl: number;
  /**
   * The first delay of the curve at which half of the zero-delay PnL is gone (`pnl_kept ≤ 0.5`);
   * null when none is, or when the zero-delay PnL is not positive.
   */
  readonly half_pnl_gone_at: number | null;
}

/**
 * Runs a request at each copy delay over one indexed tape (strategy extensions 2): what the
 * copier keeps of the leaders' edge as its bot lands later. The request's own strategy is kept
 * and only `copy_delay_seconds` varies; each point is a summary-only replay, with the copier's
 * wallet when the request reports it (a later copy fails its tolerance more often).
 *
 * @example
 * const curve = latencyCurve(tape, request, { delays: [0, 5, 30] });
 * curve.points.map((p) => [p.delay_seconds, p.pnl_kept]);
 */
export function latencyCurve(
  tape: TapeInput | Tape | IndexedTape,
  request: SimulatorRequestInput | SimulatorRequest | unknown,
  {
    delays = DEFAULT_DELAYS,
    options = {},
  }: { readonly delays?: readonly number[]; readonly options?: EngineOptionsInput } = {},
): LatencyCurve {
  checkDelays(delays);
  const { parsed, engineOptions } = prepare(request, options);
  const indexed = indexTape(tape);
  checkNetwork(indexed.network, parsed.network);
  const runs = new Map<number, DelayRun>();
  const at = (delay: number) => {
    let result = runs.get(delay);
    if (result === undefined) {
      const strategy = { ...(parsed.strategy ?? NO_STRATEGY), copy_delay_seconds: delay };
      const run = replay(indexed, { ...parsed, strategy }, engineOptions, { chart: false, trades: false });
      const summary = summaryOf(run);
      const trades = run.deals.reduce((n, deal) => n + deal.tradeCount, 0);
      const copier = run.copier === null ? null : copierJson(run.copier);
      result = { summary, trades, deals: run.deals.length, copier };
      runs.set(delay, result);
    }
    return result;
  };
  const zero = at(0).summary.pnl_total;
  const points = delays.map((delay): LatencyPoint => {
    const { summary, trades, deals, copier } = at(delay);
    const point: LatencyPoint = {
      delay_seconds: delay,
      pnl_total: summary.pnl_total,
      roi_total: summary.roi_total,
      trades,
      deals,
      pnl_kept: zero > 0 ? summary.pnl_total / zero : null,
    };
    return copier === null ? point : { ...point, copier };
  });
  const gone = zero > 0 ? points.find((p) => p.pnl_kept! <= 0.5) : undefined;
  return { points, zero_delay_pnl: zero, half_pnl_gone_at: gone?.delay_seconds ?? null };
}

/** What a point keeps of its replay. */
interface DelayRun {
  readonly summary: SimulationSummary;
  readonly trades: number;
  readonly deals: number;
  readonly copier: CopierResultJson | null;
}

function checkDelays(delays: readonly number[]): void {
  if (delays.length === 0)
    throw new InputError('no delays given: name at least one, e.g. 0,5,30', { source: 'delays' });
  delays.forEach((d, i) => {
    if (!Number.isInteger(d) || d < 0 || d > 86_400) {
      throw new InputError(`delay ${i + 1} (${d}) must be whole seconds from 0 to 86400`, { source: 'delays' });
    }
  });
}
