/**
 * The producer's side of the job layer: splits a run's inputs into jobs, queues them on Redis,
 * and hands each output on in input order as the workers answer. Outputs are keyed by input
 * index; a second answer for an index (a job run again after its worker stopped answering) is
 * ignored, so no result is counted twice.
 */
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { Job, Queue, QueueEvents } from 'bullmq';
import { resolve } from 'node:path';
import { CopysimError, InputError } from '../model/errors.js';
import { loadBullmq } from './dependencies.js';
import { QUEUE_NAME, type ItemResult, type JobData, type JobItem, type JobResult, type TapeRef } from './job.js';
import { checkRedis, redisOptions, shownUrl, type RedisOptions } from './redis.js';
import { tapeSha256, type HashStore } from './tape-hash.js';
import { hasHeaderOptions, type TapeHeaderOptions } from '../io/parquet/header.js';

/** A job failed on the workers (its tape missing or different, for instance), or the run was stopped. */
export class QueueJobError extends CopysimError {
  override name = 'QueueJobError';
}

export interface QueueRun<Output> {
  /** The Redis URL, `redis://HOST:PORT`. */
  readonly url: string;
  /** A kind of `JOB_KINDS`. */
  readonly kind: string;
  /** The tape, as the workers see it too (shared storage); made absolute. */
  readonly tapePath: string;
  /** The header of a Parquet tape without copysim's, sent with every job. */
  readonly tapeHeader?: TapeHeaderOptions;
  /** The same for every job (JSON). */
  readonly settings: unknown;
  /** Every input (JSON), by index. */
  readonly inputs: readonly unknown[];
  /** An input's answer that needs no tape (a 400 body): it is not sent. */
  readonly localAnswer?: (index: number) => Output | undefined;
  /** Inputs a job (default: about a hundred jobs, at most 100 inputs each). */
  readonly chunkSize?: number;
  /** Each output, in input order. */
  readonly onResult: (index: number, output: Output) => void;
  readonly onProgress?: (done: number, total: number) => void;
  /** A line of news for standard error (no worker connected yet), without its newline. */
  readonly onNotice?: (line: string) => void;
  /** The error of an input the tape cannot serve (default: an {@link InputError} naming the input). */
  readonly inputFailure?: (index: number, message: string) => Error;
}

/** The default chunk: about a hundred jobs, so that every worker's threads stay busy to the end. */
export function defaultChunkSize(inputs: number): number {
  return Math.max(1, Math.min(100, Math.ceil(inputs / 100)));
}

/**
 * Runs `run.inputs` on the queue's workers. Resolves once every output has been handed on;
 * rejects at the first input, in input order, that the tape cannot serve, when a job fails (with
 * its reason), or when Redis does not answer (one line naming the URL). The run's jobs are
 * taken off the queue when it ends, however it ends.
 */
export async function runOnQueue<Output>(run: QueueRun<Output>): Promise<void> {
  const bullmq = loadBullmq(); // missing queue packages are named before anything else is checked
  const tapePath = await foundTape(run.tapePath);
  await checkRedis(run.url);
  const failure = run.inputFailure ?? defaultFailure;
  const gathered = new InOrder<Output>(run.inputs.length, run.onResult, failure, run.onProgress);
  const sent: JobItem[] = [];
  for (let index = 0; index < run.inputs.length; index++) {
    const answer = run.localAnswer?.(index);
    if (answer === undefined) sent.push({ index, input: run.inputs[index] });
    else gathered.put({ index, output: answer });
  }
  if (sent.length === 0) return gathered.check();

  const connection = { ...redisOptions(run.url), maxRetriesPerRequest: null };
  const queue = new BullQueue<Output>(bullmq, connection);
  let stop: ReturnType<typeof stopOnSignals> | undefined;
  try {
    // The hash recorded for this version of the tape, or the tape hashed, while the events connect.
    const hashed = queue.hashStore().then((store) => tapeRef(run.tapePath, tapePath, store, run.tapeHeader ?? {}));
    const [tape] = await Promise.all([hashed, queue.events.waitUntilReady()]);
    stop = stopOnSignals();
    const jobs = jobsOf(run, tape, sent, randomUUID());
    queue.jobIds.push(...jobs.map((job) => job.opts.jobId));
    const added = await queue.queue.addBulk(jobs);
    // CLIENT LIST, which counts the workers, may be refused by a managed Redis: then say nothing.
    if ((await queue.queue.getWorkersCount().catch(() => 1)) === 0) {
      run.onNotice?.(
        `no worker is connected to ${shownUrl(run.url)}` +
          ` yet: the ${added.length} jobs wait for one (copysim worker --queue URL)`,
      );
    }
    await gatherResults(added, queue, gathered, stop.signal);
  } finally {
    stop?.release();
    await queue.close();
  }
}

/** The tape's absolute path, once it is known to be there (the first thing a run checks). */
async function foundTape(path: string): Promise<string> {
  const absolute = resolve(path);
  try {
    await stat(absolute);
  } catch (e) {
    throw tapeError(path, e);
  }
  return absolute;
}

/** The tape as the jobs name it: its absolute path and its SHA-256 (and the header given beside it). */
async function tapeRef(path: string, absolute: string, store: HashStore, header: TapeHeaderOptions): Promise<TapeRef> {
  try {
    const sha256 = await tapeSha256(absolute, store);
    return hasHeaderOptions(header) ? { path: absolute, sha256, header } : { path: absolute, sha256 };
  } catch (e) {
    throw tapeError(path, e);
  }
}

function tapeError(path: string, e: unknown): InputError {
  const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message;
  return new InputError(`tape ${path}: ${why}`, { source: 'tape' });
}

/** The run's jobs: the inputs to send, in chunks, each job with the kind, the tape and the settings. */
function jobsOf<Output>(run: QueueRun<Output>, tape: TapeRef, sent: readonly JobItem[], runId: string) {
  const size = run.chunkSize ?? defaultChunkSize(sent.length);
  const jobs = [];
  for (let start = 0; start < sent.length; start += size) {
    const data: JobData = { kind: run.kind, tape, settings: run.settings, items: sent.slice(start, start + size) };
    jobs.push({
      name: run.kind,
      data,
      opts: {
        jobId: `${runId}-${jobs.length}`,
        attempts: 3,
        backoff: { type: 'fixed', delay: 1_000 },
        // The producer removes its jobs when it ends; these bound what a producer that died leaves.
        removeOnComplete: { age: 86_400 },
        removeOnFail: { age: 86_400 },
      },
    });
  }
  return jobs;
}

/**
 * Hands every job's outputs on as it finishes; resolves once all have, rejects at the first
 * failure (an input the tape cannot serve, a failed job) or when `stopped` aborts.
 */
function gatherResults<Output>(
  added: readonly Job<JobData, JobResult<Output>>[],
  queue: BullQueue<Output>,
  gathered: InOrder<Output>,
  stopped: AbortSignal,
): Promise<void> {
  queue.events.setMaxListeners(2 * added.length + 10);
  queue.queue.setMaxListeners(added.length + 10);
  return new Promise<void>((resolveAll, rejectAll) => {
    let left = added.length;
    stopped.addEventListener('abort', () => rejectAll(new QueueJobError(`stopped by ${String(stopped.reason)}`)));
    const take = (result: JobResult<Output>): void => {
      for (const item of result.items) gathered.put(item);
      if (--left === 0) {
        gathered.check();
        resolveAll();
      }
    };
    added.forEach((job, n) => {
      job.waitUntilFinished(queue.events).then(
        (result: JobResult<Output>) => {
          try {
            take(result);
          } catch (e) {
            rejectAll(e);
          }
        },
        (e: Error) => rejectAll(new QueueJobError(`job ${n + 1} of ${added.length} failed: ${e.message}`)),
      );
    });
  });
}

/**
 * An abort signal raised by SIGINT or SIGTERM, held until `release`: a terminal's Ctrl-C may come
 * twice (from the terminal and passed on by the node that started this one with the replay flags).
 */
function stopOnSignals(): { readonly signal: AbortSignal; release(): void } {
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => stop.abort(signal);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: stop.signal,
    release() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/** The run's queue and its events on Redis, and the ids of the jobs it added: what `close` takes away. */
class BullQueue<Output> {
  readonly queue: Queue<JobData, JobResult<Output>>;
  readonly events: QueueEvents;
  readonly jobIds: string[] = [];

  constructor(
    { Queue, QueueEvents }: typeof import('bullmq'),
    connection: RedisOptions & { readonly maxRetriesPerRequest: null },
  ) {
    this.queue = new Queue<JobData, JobResult<Output>>(QUEUE_NAME, { connection });
    this.events = new QueueEvents(QUEUE_NAME, { connection });
    this.queue.on('error', () => {});
    this.events.on('error', () => {});
  }

  /** The queue's Redis connection, where tapes' hashes are recorded. */
  async hashStore(): Promise<HashStore> {
    return this.queue.getBackend().client;
  }

  /**
   * Takes the run's jobs off the queue and disconnects. Jobs under way on a worker stay locked
   * and cannot be removed; they expire with their age. Redis gone by now would hold the clean-up
   * forever: it gets ten seconds.
   */
  async close(): Promise<void> {
    const cleanUp = (async () => {
      await Promise.allSettled(this.jobIds.map((id) => this.queue.remove(id)));
      await Promise.allSettled([this.events.close(), this.queue.close()]);
    })();
    let timer: NodeJS.Timeout | undefined;
    const done = await Promise.race([
      cleanUp.then(() => true),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(false), 10_000))),
    ]);
    clearTimeout(timer);
    // Not awaited: with Redis gone, the disconnections never settle (and nothing would keep
    // this process alive to wait for them).
    if (!done) for (const c of [this.events, this.queue]) c.disconnect().catch(() => {});
  }
}

function defaultFailure(index: number, message: string): Error {
  return new InputError(`input ${index}: ${message}`, { source: 'tape' });
}

/** Hands outputs on in input order, holding back those that come early; ignores repeats. */
class InOrder<Output> {
  private readonly waiting = new Map<number, ItemResult<Output>>();
  private next = 0;

  constructor(
    private readonly total: number,
    private readonly onResult: (index: number, output: Output) => void,
    private readonly failure: (index: number, message: string) => Error,
    private readonly onProgress?: (done: number, total: number) => void,
  ) {}

  put(item: ItemResult<Output>): void {
    if (item.index < this.next || this.waiting.has(item.index)) return;
    this.waiting.set(item.index, item);
    for (let r = this.waiting.get(this.next); r !== undefined; r = this.waiting.get(this.next)) {
      if ('failure' in r) throw this.failure(r.index, r.failure);
      this.waiting.delete(this.next);
      this.next++;
      this.onResult(r.index, r.output);
    }
    this.onProgress?.(this.next, this.total);
  }

  /** Throws unless every output has been handed on. */
  check(): void {
    if (this.next !== this.total) throw new QueueJobError(`the workers answered ${this.next} of ${this.total} inputs`);
  }
}
