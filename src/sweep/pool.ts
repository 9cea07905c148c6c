import type { EngineOptions } from '../model/options.js';
import type { SimulatorRequest } from '../model/request.js';
import type { IndexedTape } from '../engine/tape-index.js';
import type { SweepOutput } from './run-one.js';
import { builtScriptIfAny } from '../built-script.js';
import { WorkerLostError, WorkerPool } from '../threads/pool.js';
import { packTape } from './tape-transfer.js';

/** What each sweep worker starts with. */
export interface SweepWorkerData {
  readonly tape: SharedArrayBuffer;
  readonly options: EngineOptions;
  readonly full: boolean;
}

/** Consecutive requests sent to a worker together; `slot` is the first one's position in the job list. */
export interface SweepJob {
  readonly slot: number;
  readonly requests: readonly SimulatorRequest[];
}

/** One request's answer: the output, or why it could not run. */
export type SweepSlotReply =
  | { readonly output: SweepOutput }
  | { readonly failure: { readonly input: boolean; readonly message: string } };

/** A worker's answer to a job: one reply per request, in order. */
export interface SweepWorkerReply {
  readonly slot: number;
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
 * Runs `jobs` on `workers` threads over one tape, packed once and shared. Each worker takes
 * the next batch of consecutive requests ({@link batchSize}) when it finishes one and runs it as
 * walks of the tape, so uneven jobs still keep every core busy. `onOutput` gets
 * the outputs in completion order. When a job fails, no new job starts; once the jobs under way
 * have finished, it rejects with the failure of the earliest job (a {@link SweepJobError}), the
 * same one whatever the timing, and stops every worker.
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
  try {
    await feedBatches(pool, jobs, size, onOutput);
  } finally {
    await pool.close();
  }
}

/**
 * Keeps one batch on every worker until the jobs are done or one has failed; settles once the
 * outcome is known: every output handed on, or the earliest failure.
 */
function feedBatches(
  pool: WorkerPool<SweepJob, SweepWorkerReply>,
  jobs: readonly SimulatorRequest[],
  size: number,
  onOutput: (slot: number, output: SweepOutput) => void,
): Promise<void> {
  let next = 0;
  let finished = 0;
  const failures: SweepJobError[] = [];
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const settle = (error?: Error): void => {
      if (settled) return;
      settled = true;
      if (error) reject(error);
      else resolve();
    };
    const take = (reply: SweepWorkerReply): void => {
      if (settled) return;
      finished += reply.replies.length;
      for (const [k, answer] of reply.replies.entries()) {
        const slot = reply.slot + k;
        if ('failure' in answer) {
          failures.push(new SweepJobError(slot, answer.failure.input, answer.failure.message));
          continue;
        }
        try {
          onOutput(slot, answer.output);
        } catch (e) {
          return settle(e as Error);
        }
      }
      if (failures.length > 0 && finished === next) {
        // Every job before the failed ones has run: the first failure in input order is known.
        settle(failures.reduce((a, b) => (b.slot < a.slot ? b : a)));
      } else if (finished === jobs.length) {
        settle();
      } else {
        feed();
      }
    };
    const feed = (): void => {
      if (next >= jobs.length || failures.length > 0) return;
      const job: SweepJob = { slot: next, requests: jobs.slice(next, next + size) };
      next += job.requests.length;
      pool.run(job).then(take, (e: Error) => settle(e instanceof WorkerLostError ? lostWorker(e) : e));
    };
    for (let i = 0; i < pool.size; i++) feed();
  });
}

/** A worker that threw gives its own error; one that exited, its exit code. */
function lostWorker(e: WorkerLostError): Error {
  return e.error ?? new Error(`a sweep worker stopped with exit code ${e.exitCode}`);
}
