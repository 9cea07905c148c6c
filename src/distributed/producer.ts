/**
 * The producer's side of the job layer: splits a run's inputs into jobs, queues them on Redis,
 * and hands each output on in input order as the workers answer. Outputs are keyed by input
 * index; a second answer for an index (a job run again after its worker stopped answering) is
 * ignored, so no result is counted twice.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { CopysimError, InputError } from '../model/errors.js';
import { loadBullmq } from './dependencies.js';
import { QUEUE_NAME, type ItemResult, type JobData, type JobItem, type JobResult } from './job.js';
import { checkRedis, redisOptions, shownUrl } from './redis.js';
import { fileSha256 } from './tape-store.js';

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
  const { Queue, QueueEvents } = loadBullmq();
  const tapePath = resolve(run.tapePath);
  let sha256: string;
  try {
    sha256 = await fileSha256(tapePath);
  } catch (e) {
    throw new InputError(`tape ${run.tapePath}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`, {
      source: 'tape',
    });
  }
  await checkRedis(run.url);

  const total = run.inputs.length;
  const gathered = new InOrder<Output>(total, run.onResult, run.inputFailure ?? defaultFailure, run.onProgress);
  const sent: JobItem[] = [];
  for (let index = 0; index < total; index++) {
    const answer = run.localAnswer?.(index);
    if (answer === undefined) sent.push({ index, input: run.inputs[index] });
    else gathered.put({ index, output: answer });
  }
  if (sent.length === 0) return gathered.check();

  const connection = { ...redisOptions(run.url), maxRetriesPerRequest: null };
  const queue = new Queue<JobData, JobResult<Output>>(QUEUE_NAME, { connection });
  const events = new QueueEvents(QUEUE_NAME, { connection });
  queue.on('error', () => {});
  events.on('error', () => {});
  const runId = randomUUID();
  const jobIds: string[] = [];
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => stop.abort(signal);
  // Held until the jobs are taken off the queue: a terminal's Ctrl-C may come twice (from the
  // terminal and passed on by the node that started this one with the replay flags).
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    await events.waitUntilReady();
    const size = run.chunkSize ?? defaultChunkSize(sent.length);
    const jobs = [];
    for (let start = 0; start < sent.length; start += size) {
      const jobId = `${runId}-${jobIds.length}`;
      jobIds.push(jobId);
      jobs.push({
        name: run.kind,
        data: { kind: run.kind, tape: { path: tapePath, sha256 }, settings: run.settings, items: sent.slice(start, start + size) },
        opts: {
          jobId,
          attempts: 3,
          backoff: { type: 'fixed', delay: 1_000 },
          // The producer removes its jobs when it ends; these bound what a producer that died leaves.
          removeOnComplete: { age: 86_400 },
          removeOnFail: { age: 86_400 },
        },
      });
    }
    const added = await queue.addBulk(jobs);
    // CLIENT LIST, which counts the workers, may be refused by a managed Redis: then say nothing.
    if ((await queue.getWorkersCount().catch(() => 1)) === 0) {
      run.onNotice?.(`no worker is connected to ${shownUrl(run.url)} yet: the ${added.length} jobs wait for one (copysim worker --queue URL)`);
    }
    events.setMaxListeners(2 * added.length + 10);
    queue.setMaxListeners(added.length + 10);
    await new Promise<void>((resolveAll, rejectAll) => {
      let left = added.length;
      const fail = (e: unknown): void => rejectAll(e);
      stop.signal.addEventListener('abort', () => fail(new QueueJobError(`stopped by ${String(stop.signal.reason)}`)));
      added.forEach((job, n) => {
        job.waitUntilFinished(events).then(
          (result: JobResult<Output>) => {
            try {
              for (const item of result.items) gathered.put(item);
            } catch (e) {
              fail(e);
              return;
            }
            if (--left === 0) {
              try {
                gathered.check();
                resolveAll();
              } catch (e) {
                fail(e);
              }
            }
          },
          (e: Error) => fail(new QueueJobError(`job ${n + 1} of ${added.length} failed: ${e.message}`)),
        );
      });
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    // Jobs under way on a worker stay locked and cannot be removed; they expire with their age.
    // Redis gone by now would hold the clean-up forever: give it ten seconds.
    const cleanUp = (async () => {
      await Promise.allSettled(jobIds.map((id) => queue.remove(id)));
      await Promise.allSettled([events.close(), queue.close()]);
    })();
    let timer: NodeJS.Timeout | undefined;
    const done = await Promise.race([cleanUp.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), 10_000)))]);
    clearTimeout(timer);
    // Not awaited: with Redis gone, the disconnections never settle (and nothing would keep
    // this process alive to wait for them).
    if (!done) for (const c of [events, queue]) c.disconnect().catch(() => {});
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
