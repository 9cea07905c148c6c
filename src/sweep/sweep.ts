import { availableParallelism } from 'node:os';
import { InputError, type ErrorBody } from '../model/errors.js';
import { resolveEngineOptions, type EngineOptionsInput } from '../model/options.js';
import type { SimulatorRequest } from '../model/request.js';
import type { CopierResultJson, SimulationSummary, SimulatorResponse } from '../model/response.js';
import type { Tape, TapeInput } from '../model/tape.js';
import { indexTape, type IndexedTape } from '../engine/tape-index.js';
import { batchSize, runOnWorkers, SweepJobError, sweepWorkerUrl } from './pool.js';
import { runBatchShared, type SweepOutput } from './run-one.js';
import { runShared, type SharedRuns, type SlotOutcome } from './shared-runs.js';
import { checkSweepRequest } from './sweep-request.js';

/** Settings of a sweep; every one optional. */
export interface SweepOptions {
  /**
   * Worker threads; default: the machine's available parallelism. 0 runs every request in the
   * calling thread (so does a build without the compiled worker, such as the TypeScript source).
   */
  readonly workers?: number;
  /** Engine options (model 1.3), the same for every request. */
  readonly engineOptions?: EngineOptionsInput;
  /** Keep each whole response beside its summary (more work and memory per request). */
  readonly full?: boolean;
  /** Called as requests finish, with the count done and the total. */
  readonly onProgress?: (done: number, total: number) => void;
  /**
   * Called after each walk of the tape when the requests run in the calling thread: the host's
   * moment for work that changes no result (the command line collects the young generation).
   * Worker threads run their own host's (src/threads/sweep-thread.ts).
   */
  readonly afterWalk?: () => void;
}

/**
 * The result of one request: its summary, its `copier` when the request reports the copier's
 * wallet (model 3.0), its response with `full`; or its 400 body.
 */
export type SweepResult =
  | {
      readonly index: number;
      readonly summary: SimulationSummary;
      readonly copier?: CopierResultJson;
      readonly response?: SimulatorResponse;
    }
  | { readonly index: number; readonly error: ErrorBody };

/**
 * Runs many simulator requests over one tape and hands each result to `onResult` in input
 * order. The tape is validated and indexed once; the requests are spread over worker threads in
 * batches, a few requests at a time replayed as the followers of one walk of the tape; requests
 * equal but for `max_dupe_buy_times` share one run where the limit made no difference
 * ({@link SharedRuns}). A request that fails validation or asks for another network than the tape's gives
 * `{ index, error }` with its 400 body, and the others their summaries; a tape or options that
 * cannot serve a request (no native prices for a fee) rejects the whole sweep with an
 * {@link InputError} naming the request. Results are the same whatever the number of workers.
 *
 * @example
 * await sweepEach(tape, requests, (r) => console.log(JSON.stringify(r)), { workers: 2 });
 */
export async function sweepEach(
  tape: TapeInput | Tape | IndexedTape,
  requests: readonly unknown[],
  onResult: (result: SweepResult) => void,
  options: SweepOptions = {},
): Promise<void> {
  const engineOptions = resolveEngineOptions(options.engineOptions ?? {});
  const indexed = indexTape(tape);
  const full = options.full ?? false;
  const emitter = new InOrder(requests.length, onResult, options.onProgress);

  const jobs: SimulatorRequest[] = [];
  const indexOfJob: number[] = [];
  const invalid: SweepResult[] = [];
  // Each request line on its own: a bad one gives its 400 body, the others still run.
  requests.forEach((input, index) => {
    const checked = checkSweepRequest(input, indexed.network);
    if ('error' in checked) {
      invalid.push({ index, error: checked.error });
    } else {
      jobs.push(checked.request);
      indexOfJob.push(index);
    }
  });
  for (const result of invalid) emitter.put(result);

  const put = (slot: number, output: SweepOutput): void => emitter.put({ index: indexOfJob[slot]!, ...output });
  const workers = options.workers ?? availableParallelism();
  const url = workers > 0 ? sweepWorkerUrl() : null;
  if (url === null) {
    // This thread runs each batch as it is handed out: one at a time.
    const runSlots = (slots: readonly number[]): Promise<SlotOutcome[]> => {
      const batch = slots.map((slot) => jobs[slot]!);
      const outcomes = runBatchShared(indexed, batch, engineOptions, full, options.afterWalk);
      return Promise.resolve(
        outcomes.map((outcome, k) => {
          if ('output' in outcome) return outcome;
          const e = outcome.thrown;
          return { error: e instanceof InputError ? inRequest(indexOfJob[slots[k]!]!, e.message) : (e as Error) };
        }),
      );
    };
    return runShared(jobs, batchSize(jobs.length, 1), 1, runSlots, put);
  }
  try {
    await runOnWorkers(indexed, jobs, url, { workers, options: engineOptions, full }, put);
  } catch (e) {
    if (e instanceof SweepJobError) throw e.input ? inRequest(indexOfJob[e.slot]!, e.message) : new Error(e.message);
    throw e;
  }
}

/**
 * {@link sweepEach}, collecting the results in input order.
 *
 * @example
 * const results = await sweep(tape, [requestA, requestB], { workers: 2 });
 * results[0]; // { index: 0, summary: { pnl_total: …, … } }
 */
export async function sweep(
  tape: TapeInput | Tape | IndexedTape,
  requests: readonly unknown[],
  options: SweepOptions = {},
): Promise<SweepResult[]> {
  const results: SweepResult[] = [];
  await sweepEach(tape, requests, (r) => results.push(r), options);
  return results;
}

function inRequest(index: number, message: string): InputError {
  return new InputError(`request ${index}: ${message}`, { source: 'tape' });
}

/** Hands results on in index order, holding back those that finish early. */
class InOrder {
  private readonly waiting = new Map<number, SweepResult>();
  private next = 0;

  constructor(
    private readonly total: number,
    private readonly onResult: (result: SweepResult) => void,
    private readonly onProgress?: (done: number, total: number) => void,
  ) {}

  put(result: SweepResult): void {
    this.waiting.set(result.index, result);
    for (let r = this.waiting.get(this.next); r !== undefined; r = this.waiting.get(this.next)) {
      this.waiting.delete(this.next);
      this.next++;
      this.onResult(r);
    }
    this.onProgress?.(this.next, this.total);
  }
}
