import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { CopysimError, InputError, RequestError } from '../../model/errors.js';
import type { EngineOptionsInput } from '../../model/options.js';
import type { Network } from '../../model/request.js';
import type { Warning } from '../../diagnose/warning.js';
import { builtScript } from '../../built-script.js';
import { NoWorkerError, PoolClosedError, WorkerLostError, WorkerPool } from '../../threads/pool.js';
import { HttpError } from '../http-error.js';
import type { JobFailure, SimulationJob, TapeFile, WorkerConfig, WorkerMessage } from './protocol.js';

export interface SimulationPoolOptions {
  /** The tapes every worker loads (one per network). */
  readonly tapes: readonly TapeFile[];
  readonly engineOptions?: EngineOptionsInput;
  /** Workers; default: the cores less one (for the request thread), at least 1, at most 4. */
  readonly size?: number;
  /** Jobs waiting for a worker beyond which `run` answers 503 `busy`; default 256. */
  readonly maxQueue?: number;
  /** The compiled worker script; default `worker.js` beside this module in `dist/`. */
  readonly workerUrl?: URL;
}

/** A simulation's answer: the 200 body as JSON text, and the warnings of `diagnose`. */
export interface SimulationAnswer {
  readonly json: string;
  readonly warnings: readonly Warning[];
}

/** Runs simulations; the HTTP layer depends on this, not on threads. */
export interface Simulator {
  /** The simulator's answer; rejects with `RequestError` for an invalid request. */
  run(network: Network, request: unknown): Promise<SimulationAnswer>;
  /** For a simulator that runs elsewhere (the work queue): resolves when that answers, for `GET /health`. */
  ping?(): Promise<void>;
}

/** The default worker count: one core stays with the request thread. */
export function defaultPoolSize(): number {
  return Math.min(4, Math.max(1, availableParallelism() - 1));
}

/**
 * The compiled worker script. From `dist/` it is the file beside this module; when this module
 * runs from its TypeScript source (tests), it is the same path under `dist/`.
 */
export function defaultWorkerUrl(): URL {
  return builtScript('server/simulation/worker.js');
}

function errorOf(failure: JobFailure): Error {
  if (failure.kind === 'request') return new RequestError(failure.body);
  if (failure.kind === 'input') return new InputError(failure.message, { source: 'tape' });
  return new Error(failure.message);
}

/** A worker's first message: `ready` once it has loaded the tapes, or `fatal` with why it cannot. */
function handshake(message: unknown): Error | null {
  const first = message as WorkerMessage;
  if (first.type === 'ready') return null;
  if (first.type === 'fatal') return new InputError(first.message, { source: 'tape' });
  return new CopysimError(`a simulation worker sent "${first.type}" before it was ready`);
}

/** Why the workers could not start, as the service reports it. */
function startError(e: unknown): unknown {
  if (!(e instanceof WorkerLostError)) return e;
  return e.error ?? new CopysimError(`a simulation worker stopped while starting (exit code ${e.exitCode})`);
}

/** Why a job got no answer, as the service reports it. */
function runError(e: unknown): unknown {
  if (e instanceof WorkerLostError) return new Error(`the simulation worker stopped: ${e.message}`);
  if (e instanceof PoolClosedError) return new CopysimError('the simulation pool is closed');
  if (e instanceof NoWorkerError) return new Error('no simulation worker is running');
  return e;
}

/**
 * A small pool of worker threads that run `simulate`, so the request thread stays free for
 * reads. Each worker loads the tapes once at start; jobs queue when all workers are busy. A
 * worker that crashes fails its job and is replaced.
 *
 * @example
 * const pool = await SimulationPool.start({ tapes: [{ network: 'sol', file: 'tape-sol.json' }] });
 * const { json, warnings } = await pool.run('sol', request);
 * await pool.close();
 */
export class SimulationPool implements Simulator {
  private nextId = 1;

  private constructor(
    private readonly pool: WorkerPool<SimulationJob, WorkerMessage>,
    private readonly maxQueue: number,
  ) {}

  /** Starts the workers and waits until every one has loaded the tapes. */
  static async start(options: SimulationPoolOptions): Promise<SimulationPool> {
    const url = options.workerUrl ?? defaultWorkerUrl();
    if (!existsSync(fileURLToPath(url))) {
      const path = fileURLToPath(url);
      throw new CopysimError(`the simulation worker ${path} is missing: build with "npx tsc -p tsconfig.build.json"`);
    }
    const workerData: WorkerConfig = { tapes: options.tapes, engineOptions: options.engineOptions ?? {} };
    const size = options.size ?? defaultPoolSize();
    let pool: WorkerPool<SimulationJob, WorkerMessage>;
    try {
      pool = await WorkerPool.start<SimulationJob, WorkerMessage>({ url, size, workerData, handshake });
    } catch (e) {
      throw startError(e);
    }
    return new SimulationPool(pool, options.maxQueue ?? 256);
  }

  /** Workers running. */
  get size(): number {
    return this.pool.size;
  }

  /** Jobs waiting for a worker. */
  get queued(): number {
    return this.pool.queued;
  }

  async run(network: Network, request: unknown): Promise<SimulationAnswer> {
    if (this.pool.queued >= this.maxQueue) {
      const detail = `${this.pool.queued} simulations are waiting; retry later`;
      throw new HttpError(503, { code: 'busy', detail }, { 'retry-after': '1' });
    }
    let message: WorkerMessage;
    try {
      message = await this.pool.run({ id: this.nextId++, network, request });
    } catch (e) {
      throw runError(e);
    }
    if (message.type === 'done') return { json: message.json, warnings: message.warnings ?? [] };
    if (message.type === 'failed') throw errorOf(message.failure);
    throw new CopysimError(`a simulation worker answered "${message.type}" to a job`);
  }

  /** Stops every worker; jobs still waiting are rejected. */
  close(): Promise<void> {
    return this.pool.close();
  }
}
