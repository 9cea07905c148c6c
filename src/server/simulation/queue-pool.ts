import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { Queue, QueueEvents } from 'bullmq';
import { loadBullmq } from '../../distributed/dependencies.js';
import { QUEUE_NAME, type JobData, type JobResult, type TapeRef } from '../../distributed/job.js';
import { checkRedis, redisOptions } from '../../distributed/redis.js';
import type { SimulateJobSettings, SimulateOutput } from '../../distributed/simulate-kind.js';
import { fileSha256 } from '../../distributed/tape-hash.js';
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
}

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
  ) {}

  /** Hashes the tapes and connects to the queue; rejects with one line when Redis does not answer. */
  static async start(options: QueueSimulationPoolOptions): Promise<QueueSimulationPool> {
    const { Queue, QueueEvents } = loadBullmq();
    await checkRedis(options.url);
    const tapes = new Map<Network, TapeRef>();
    for (const { network, file } of options.tapes) {
      const path = resolve(file);
      tapes.set(network, { path, sha256: await fileSha256(path) });
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
    return new QueueSimulationPool(queue, events, tapes, settings, options.maxQueue ?? 256);
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
    let result: SimulateResult;
    try {
      const job = await this.queue.add('simulate', data, {
        jobId,
        attempts: 3,
        backoff: { type: 'fixed', delay: 1_000 },
        // Taken off below; these bound what a service that died leaves.
        removeOnComplete: { age: 3_600 },
        removeOnFail: { age: 86_400 },
      });
      result = await job.waitUntilFinished(this.events);
    } catch (e) {
      throw new Error(`the simulation job failed on the queue: ${(e as Error).message}`);
    } finally {
      this.running--;
      this.queue.remove(jobId).catch(() => {});
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
