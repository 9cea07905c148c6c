import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { Queue, QueueEvents } from 'bullmq';
import { loadBullmq } from '../../distributed/dependencies.js';
import { QUEUE_NAME, type JobData, type JobResult, type TapeRef } from '../../distributed/job.js';
import { checkRedis, redisOptions } from '../../distributed/redis.js';
import type { SimulateJobSettings, SimulateOutput } from '../../distributed/simulate-kind.js';
import { fileSha256 } from '../../distributed/tape-hash.js';
import { hasHeaderOptions } from '../../io/parquet/header.js';
import { CopysimError, InputError, RequestError } from '../../model/errors.js';
import type { EngineOptionsInput } from '../../model/options.js';
import type { Network } from '../../model/request.js';
import { HttpError } from '../http-error.js';
import type { SimulationAnswer, Simulator } from './pool.js';
import type { TapeFile } from './protocol.js';

export interface QueueSimulationPoolOptions {
  /** The Redis URL of the queue (`redis://HOST:PORT`), shared with the `copysim worker` processes. */
  readonly url: string;
  /** The served tapes; the workers read each at the same path (shared storage). */
  readonly tapes: readonly TapeFile[];
  readonly engineOptions?: EngineOptionsInput;
  /** Simulations under way beyond which `run` answers 503 `busy`; default 256. */
  readonly maxQueue?: number;
  /**
   * Seconds a simulation may take on the queue, waiting for a worker included, before `run`
   * answers 503 `queue_timeout` (and takes its job off the queue if no worker has it yet);
   * default {@link DEFAULT_QUEUE_TIMEOUT_SECONDS}.
   */
  readonly timeoutSeconds?: number;
}

/** Seconds a simulation may take on the queue by default: 60. */
export const DEFAULT_QUEUE_TIMEOUT_SECONDS = 60;

/** What a time limit that ran out rejects with. */
const TIMED_OUT = Symbol('timed out');

type SimulateResult = JobResult<SimulateOutput>;

/**
 * Runs the service's simulations on `copysim worker` processes through the work queue (job kind
 * `simulate`), one job a request: the workers answer with the bytes and warnings the local
 * worker threads give, so the answers and the credits charged are the same. The queue and its
 * events stay connected for the service's life; each tape's SHA-256 is taken once, at start.
 *
 * @example
 * const pool = await QueueSimulationPool.start({ url: 'redis://10.0.0.5:6379', tapes });
 * const { json, warnings } = await pool.run('sol', request);
 * await pool.close();
 */
export class QueueSimulationPool implements Simulator {
  private running = 0;

  private constructor(
    private readonly queue: Queue<JobData, SimulateResult>,
    private readonly events: QueueEvents,
    private readonly tapes: ReadonlyMap<Network, TapeRef>,
    private readonly settings: SimulateJobSettings,
    private readonly maxQueue: number,
    private readonly timeoutSeconds: number,
  ) {}

  /** Hashes the tapes and connects to the queue; rejects with one line when Redis does not answer. */
  static async start(options: QueueSimulationPoolOptions): Promise<QueueSimulationPool> {
    const { Queue, QueueEvents } = loadBullmq();
    await checkRedis(options.url);
    const tapes = new Map<Network, TapeRef>();
    for (const { network, file, header } of options.tapes) {
      const path = resolve(file);
      const sha256 = await fileSha256(path);
      tapes.set(
        network,
        header !== undefined && hasHeaderOptions(header) ? { path, sha256, header } : { path, sha256 },
      );
    }
    const connection = { ...redisOptions(options.url), maxRetriesPerRequest: null };
    const queue = new Queue<JobData, SimulateResult>(QUEUE_NAME, { connection });
    const events = new QueueEvents(QUEUE_NAME, { connection });
    queue.on('error', () => {});
    events.on('error', () => {});
    // Every request waits on the events: no warning past the default ten listeners.
    events.setMaxListeners(0);
    await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
    const settings = { engineOptions: options.engineOptions ?? {} };
    const timeoutSeconds = options.timeoutSeconds ?? DEFAULT_QUEUE_TIMEOUT_SECONDS;
    return new QueueSimulationPool(queue, events, tapes, settings, options.maxQueue ?? 256, timeoutSeconds);
  }

  /** No local worker threads: the simulations run on the queue's workers. */
  get size(): number {
    return 0;
  }

  async run(network: Network, request: unknown): Promise<SimulationAnswer> {
    if (this.running >= this.maxQueue) {
      const detail = `${this.running} simulations are waiting; retry later`;
      throw new HttpError(503, { code: 'busy', detail }, { 'retry-after': '1' });
    }
    const tape = this.tapes.get(network);
    if (tape === undefined) throw new InputError(`no tape of network ${network} is loaded`, { source: 'tape' });
    const data: JobData = { kind: 'simulate', tape, settings: this.settings, items: [{ index: 0, input: request }] };
    const jobId = `simulate-${randomUUID()}`;
    this.running++;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(TIMED_OUT), this.timeoutSeconds * 1000);
    });
    const added = this.queue.add('simulate', data, {
      jobId,
      attempts: 3,
      backoff: { type: 'fixed', delay: 1_000 },
      // Taken off below; these bound what a service that died leaves.
      removeOnComplete: { age: 3_600 },
      removeOnFail: { age: 86_400 },
    });
    let result: SimulateResult;
    try {
      const job = await Promise.race([added, timedOut]);
      // Its own time limit, later than ours, only lets go of its listeners.
      result = await Promise.race([job.waitUntilFinished(this.events, this.timeoutSeconds * 1000 + 1000), timedOut]);
    } catch (e) {
      if (e === TIMED_OUT) {
        const detail =
          `no queue worker finished the simulation within ${this.timeoutSeconds} s ` +
          '(is a copysim worker running on the queue?); nothing was charged, retry later';
        throw new HttpError(503, { code: 'queue_timeout', detail }, { 'retry-after': '1' });
      }
      throw new Error(`the simulation job failed on the queue: ${(e as Error).message}`);
    } finally {
      clearTimeout(timer);
      this.running--;
      // Once added: a job no worker has taken yet goes; one a worker runs stays, its answer unused.
      added.then(() => this.queue.remove(jobId)).catch(() => {});
    }
    const item = result.items[0];
    if (item === undefined) throw new CopysimError('a queue worker answered a simulation job with no result');
    if ('failure' in item) throw new InputError(item.failure, { source: 'tape' });
    if ('error' in item.output) throw new RequestError(item.output.error);
    return { json: item.output.json, warnings: item.output.warnings };
  }

  /** Resolves when the queue's Redis answers a count of waiting jobs (`GET /health`). */
  async ping(): Promise<void> {
    await this.queue.getJobCounts('waiting');
  }

  /** Disconnects from the queue; the requests still waiting get no answer. */
  async close(): Promise<void> {
    await Promise.allSettled([this.events.close(), this.queue.close()]);
  }
}
