/**
 * The kinds of job a worker can run, by name. A kind says what a worker does with a tape, the
 * run's settings and one input; the job layer does the rest (chunks, tape checks, threads,
 * retries, gathering in input order). To add one: write a {@link JobKind} and list it in
 * {@link JOB_KINDS}; its producer calls `runOnQueue` with the kind's name.
 */
import type { IndexedTape } from '../engine/tape-index.js';
import { InputError } from '../model/errors.js';
import type { ItemResult, JobItem } from './job.js';
import { sweepKind } from './sweep-kind.js';

/** What a worker does for one kind of job. Runs in a worker thread; everything it gets and returns is JSON. */
export interface JobKind<Settings = unknown, Input = unknown, Output = unknown, Context = unknown> {
  readonly name: string;
  /** Once per tape and settings in each thread: what every input of the run needs (resolved options, indexes). */
  prepare(tape: IndexedTape, settings: Settings): Context;
  /**
   * One input. Throws an `InputError` when the tape cannot serve it: that input's failure,
   * reported by the producer in input order. Any other error fails the job (BullMQ retries it).
   */
  run(context: Context, input: Input): Output;
}

/** Every kind, by name. */
export const JOB_KINDS: ReadonlyMap<string, JobKind> = new Map<string, JobKind>(
  [sweepKind as JobKind].map((kind) => [kind.name, kind]),
);

/** Runs a chunk's inputs in order. */
export function runItems(kind: JobKind, context: unknown, items: readonly JobItem[]): ItemResult[] {
  return items.map(({ index, input }) => {
    try {
      return { index, output: kind.run(context, input) };
    } catch (e) {
      if (e instanceof InputError) return { index, failure: e.message };
      throw e;
    }
  });
}
