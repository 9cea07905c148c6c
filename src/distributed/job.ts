/**
 * What travels through the queue. A job is a kind (registered by name, see job-kinds.ts), the
 * tape's path and SHA-256 (the tape itself never travels: workers read it from shared storage
 * and check its hash), the run's settings, and a chunk of inputs with their input indices. Its
 * result keys every output by that index, so the producer gathers them in input order and
 * ignores a second answer for an index (a job run again after its worker stopped answering).
 */

import type { IndexedTape } from '../engine/tape-index.js';
import type { TapeHeaderOptions } from '../io/parquet/header.js';

/** The BullMQ queue every producer and worker of copysim shares on one Redis. */
export const QUEUE_NAME = 'copysim';

/** A tape on shared storage: where it is and what it must hash to. */
export interface TapeRef {
  /** Absolute path, the same on the producer and on every worker. */
  readonly path: string;
  /** SHA-256 of the file's bytes, lowercase hex. */
  readonly sha256: string;
  /** The header of a Parquet file without copysim's (another program wrote it), read with the file. */
  readonly header?: TapeHeaderOptions;
}

/** One input of a job and its index among the run's inputs. */
export interface JobItem<Input = unknown> {
  readonly index: number;
  readonly input: Input;
}

/** A job's data. */
export interface JobData<Settings = unknown, Input = unknown> {
  readonly kind: string;
  readonly tape: TapeRef;
  /** The same for every job of a run (engine options, for instance). */
  readonly settings: Settings;
  readonly items: readonly JobItem<Input>[];
}

/**
 * One input's answer: its output, or why the tape cannot serve it (an `InputError` of the
 * kind, such as a request for another network). The producer stops at the first failure in
 * input order, as a local run does.
 */
export type ItemResult<Output = unknown> =
  | { readonly index: number; readonly output: Output }
  | { readonly index: number; readonly failure: string };

/** A job's return value. */
export interface JobResult<Output = unknown> {
  readonly items: readonly ItemResult<Output>[];
}

/** One accepted input's answer from a chunk's run: its output, or what running it alone would have thrown. */
export type Outcome<Output> = { readonly output: Output } | { readonly thrown: unknown };

/** What a worker does for one kind of job. Runs in a worker thread; everything it gets and returns is JSON. */
export interface JobKind<Settings = unknown, Input = unknown, Output = unknown, Context = unknown, Accepted = unknown> {
  readonly name: string;
  /** Once per tape and settings in each thread: what every input of the run needs (resolved options, indexes). */
  prepare(tape: IndexedTape, settings: Settings): Context;
  /**
   * One input checked: what `runAll` takes, or the input's own answer (a 400 body, say). Throws an
   * `InputError` when the tape cannot serve it: that input's failure, reported by the producer in
   * input order. Any other error fails the job (BullMQ retries it).
   */
  accept(context: Context, input: Input): { readonly accepted: Accepted } | { readonly output: Output };
  /**
   * A chunk's accepted inputs at once (as the followers of walks of the tape), each answered as it
   * would be alone. `afterWalk` is the host's call between walks (the collector's, on a queue
   * worker); a kind that walks the tape calls it after each walk.
   */
  runAll(context: Context, accepted: readonly Accepted[], afterWalk?: () => void): readonly Outcome<Output>[];
}
