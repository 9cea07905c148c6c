import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { EngineOptions } from '../model/options.js';
import type { SimulatorRequest } from '../model/request.js';
import type { IndexedTape } from '../engine/tape-index.js';
import type { SweepOutput } from './run-one.js';
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
  const here = import.meta.url;
  const url = here.endsWith('.ts') ? new URL('../../dist/src/sweep/worker.js', here) : new URL('./worker.js', here);
  return existsSync(fileURLToPath(url)) ? url : null;
}

/**
 * Runs `jobs` on `workers` threads over one tape, packed once and shared. Each worker takes
 * the next batch of consecutive requests ({@link batchSize}) when it finishes one and runs it as
 * one walk of the tape, so uneven jobs still keep every core busy. `onOutput` gets
 * the outputs in completion order. When a job fails, no new job starts; once the jobs under way
 * have finished, it rejects with the failure of the earliest job (a {@link SweepJobError}), the
 * same one whatever the timing, and stops every worker.
 */
export function runOnWorkers(
  tape: IndexedTape,
  jobs: readonly SimulatorRequest[],
  url: URL,
  settings: { readonly workers: number; readonly options: EngineOptions; readonly full: boolean },
  onOutput: (slot: number, output: SweepOutput) => void,
): Promise<void> {
  if (jobs.length === 0) return Promise.resolve();
  const workerData: SweepWorkerData = { tape: packTape(tape), options: settings.options, full: settings.full };
  const threads: Worker[] = [];
  let next = 0;
  let finished = 0;
  let settled = false;
  const failures: SweepJobError[] = [];

  return new Promise<void>((resolve, reject) => {
    const settle = (error?: Error): void => {
      if (settled) return;
      settled = true;
      void Promise.all(threads.map((w) => w.terminate())).then(() => (error ? reject(error) : resolve()));
    };
    const size = batchSize(jobs.length, settings.workers);
    const feed = (worker: Worker): void => {
      if (next < jobs.length && failures.length === 0) {
        const job: SweepJob = { slot: next, requests: jobs.slice(next, next + size) };
        next += job.requests.length;
        worker.postMessage(job);
      }
    };
    const count = Math.max(1, Math.min(settings.workers, Math.ceil(jobs.length / size)));
    for (let i = 0; i < count; i++) {
      const worker = new Worker(url, { workerData });
      threads.push(worker);
      worker.on('message', (reply: SweepWorkerReply) => {
        if (settled) return;
        finished += reply.replies.length;
        for (const [k, answer] of reply.replies.entries()) {
          const slot = reply.slot + k;
          if ('failure' in answer) {
            failures.push(new SweepJobError(slot, answer.failure.input, answer.failure.message));
          } else {
            try {
              onOutput(slot, answer.output);
            } catch (e) {
              settle(e as Error);
              return;
            }
          }
        }
        if (failures.length > 0 && finished === next) {
          // Every job before the failed ones has run: the first failure in input order is known.
          settle(failures.reduce((a, b) => (b.slot < a.slot ? b : a)));
        } else if (finished === jobs.length) {
          settle();
        } else {
          feed(worker);
        }
      });
      worker.on('error', (e) => settle(e));
      worker.on('exit', (code) => {
        if (code !== 0) settle(new Error(`a sweep worker stopped with exit code ${code}`));
      });
      feed(worker);
    }
  });
}
