import type { EngineOptions } from '../model/options.js';
import type { SimulatorRequest } from '../model/request.js';
import type { IndexedTape } from '../engine/tape-index.js';
import type { SweepOutput } from './run-one.js';
import { builtScriptIfAny } from '../built-script.js';
import { WorkerLostError, WorkerPool } from '../threads/pool.js';
import { packTape } from './tape-transfer.js';
import { runShared, type SlotOutcome } from './shared-runs.js';

/** What each sweep worker starts with. */
export interface SweepWorkerData {
  readonly tape: SharedArrayBuffer;
  readonly options: EngineOptions;
  readonly full: boolean;
}

/** Requests sent to a worker together. */
export interface SweepJob {
  readonly requests: readonly SimulatorRequest[];
}

/** One request's answer: the output and the run's least dupe limit ({@link runShared}), or why it could not run. */
export type SweepSlotReply =
  | { readonly output: SweepOutput; readonly leastDupeLimit: number }
  | { readonly failure: { readonly input: boolean; readonly message: string } };

/** A worker's answer to a job: one reply per request, in order. */
export interface SweepWorkerReply {
  readonly replies: readonly SweepSlotReply[];
}

/**
 * Requests sent to a worker at once (it walks them a few at a time, `runBatch`): fewer messages
 * for larger batches, work spread more evenly over the workers for smaller ones; at least four
 * batches a worker, at most 16 requests a batch.
 */
export function batchSize(requests: number, workers: number): number {
  return Math.max(1, Math.min(16, Math.ceil(requests / (4 * Math.max(1, workers)))));
}

/** A job that failed in a worker: `input` when the tape or options could not serve it. */
export class SweepJobError extends Error {
  override name = 'SweepJobError';
  constructor(
    readonly slot: number,
    readonly input: boolean,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The compiled worker script, or null when there is none (running from the TypeScript source
 * without a build): the sweep then runs in the calling thread.
 */
export function sweepWorkerUrl(): URL | null {
  return builtScriptIfAny('threads/sweep-thread.js');
}

/** What a sweep's threads are asked to do. */
export interface PoolSettings {
  readonly workers: number;
  readonly options: EngineOptions;
  readonly full: boolean;
}

/**
 * Runs `jobs` on `workers` threads over one tape, packed once and shared. Each worker takes the
 * next batch of ready requests ({@link batchSize}, in the order of {@link runShared}) when it
 * finishes one and runs it as walks of the tape, so uneven jobs still keep every core busy.
 * `onOutput` gets the outputs in completion order. When a job fails, no job after it in input
 * order starts; once those before it have run, it rejects with the failure of the earliest job
 * (a {@link SweepJobError}), the same one whatever the timing, and stops every worker.
 */
export async function runOnWorkers(
  tape: IndexedTape,
  jobs: readonly SimulatorRequest[],
  url: URL,
  settings: PoolSettings,
  onOutput: (slot: number, output: SweepOutput) => void,
): Promise<void> {
  if (jobs.length === 0) return;
  const workerData: SweepWorkerData = { tape: packTape(tape), options: settings.options, full: settings.full };
  const size = batchSize(jobs.length, settings.workers);
  const count = Math.max(1, Math.min(settings.workers, Math.ceil(jobs.length / size)));
  const pool = await WorkerPool.start<SweepJob, SweepWorkerReply>({ url, size: count, workerData });
  const runSlots = async (slots: readonly number[]): Promise<SlotOutcome[]> => {
    try {
      const reply = await pool.run({ requests: slots.map((slot) => jobs[slot]!) });
      return reply.replies.map((answer, k) =>
        'failure' in answer
          ? { error: new SweepJobError(slots[k]!, answer.failure.input, answer.failure.message) }
          : answer,
      );
    } catch (e) {
      throw e instanceof WorkerLostError ? lostWorker(e) : e;
    }
  };
  try {
    await runShared(jobs, size, pool.size, runSlots, onOutput);
  } finally {
    await pool.close();
  }
}

/** A worker that threw gives its own error; one that exited, its exit code. */
function lostWorker(e: WorkerLostError): Error {
  return e.error ?? new Error(`a sweep worker stopped with exit code ${e.exitCode}`);
}
