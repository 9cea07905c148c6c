import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CopysimError, InputError, RequestError } from '../../model/errors.js';
import type { EngineOptionsInput } from '../../model/options.js';
import type { Network } from '../../model/request.js';
import type { Warning } from '../../diagnose/warning.js';
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
}

interface Pending {
  readonly job: SimulationJob;
  readonly resolve: (answer: SimulationAnswer) => void;
  readonly reject: (error: Error) => void;
}

interface Slot {
  readonly worker: Worker;
  pending: Pending | null;
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
  const here = import.meta.url;
  if (here.endsWith('.ts')) return new URL('../../../dist/src/server/simulation/worker.js', here);
  return new URL('./worker.js', here);
}

function errorOf(failure: JobFailure): Error {
  if (failure.kind === 'request') return new RequestError(failure.body);
  if (failure.kind === 'input') return new InputError(failure.message, { source: 'tape' });
  return new Error(failure.message);
}

/**
 * A small pool of worker threads that run `simulate`, so the request thread stays free for
 * reads. Each worker loads the tapes once at start; jobs queue when all workers are busy.
 *
 * @example
 * const pool = await SimulationPool.start({ tapes: [{ network: 'sol', file: 'tape-sol.json' }] });
 * const { json, warnings } = await pool.run('sol', request);
 * await pool.close();
 */
export class SimulationPool implements Simulator {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private readonly config: WorkerConfig;
  private readonly workerUrl: URL;
  private readonly maxQueue: number;
  private nextId = 1;
  private starting = 0;
  private closed = false;

  private constructor(options: SimulationPoolOptions) {
    this.config = { tapes: options.tapes, engineOptions: options.engineOptions ?? {} };
    this.workerUrl = options.workerUrl ?? defaultWorkerUrl();
    this.maxQueue = options.maxQueue ?? 256;
  }

  /** Starts the workers and waits until every one has loaded the tapes. */
  static async start(options: SimulationPoolOptions): Promise<SimulationPool> {
    const pool = new SimulationPool(options);
    if (!existsSync(fileURLToPath(pool.workerUrl))) {
      throw new CopysimError(
        `the simulation worker ${fileURLToPath(pool.workerUrl)} is missing: build with "npx tsc -p tsconfig.build.json"`,
      );
    }
    const size = options.size ?? defaultPoolSize();
    try {
      await Promise.all(Array.from({ length: size }, () => pool.spawn()));
    } catch (e) {
      await pool.close();
      throw e;
    }
    return pool;
  }

  /** Workers running. */
  get size(): number {
    return this.slots.length;
  }

  /** Jobs waiting for a worker. */
  get queued(): number {
    return this.queue.length;
  }

  run(network: Network, request: unknown): Promise<SimulationAnswer> {
    if (this.closed) return Promise.reject(new CopysimError('the simulation pool is closed'));
    if (this.queue.length >= this.maxQueue) {
      return Promise.reject(
        new HttpError(503, { code: 'busy', detail: `${this.queue.length} simulations are waiting; retry later` }, { 'retry-after': '1' }),
      );
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ job: { id: this.nextId++, network, request }, resolve, reject });
      this.dispatch();
    });
  }

  /** Stops every worker; jobs still waiting are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.splice(0)) p.reject(new CopysimError('the simulation pool is closed'));
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate()));
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.pending !== null) continue;
      slot.pending = this.queue.shift()!;
      slot.worker.postMessage(slot.pending.job);
    }
  }

  private spawn(): Promise<void> {
    this.starting++;
    return new Promise<void>((resolve, reject) => {
      const worker = new Worker(this.workerUrl, { workerData: this.config });
      const slot: Slot = { worker, pending: null };
      let ready = false;
      let crash: Error | undefined;
      worker.on('message', (message: WorkerMessage) => {
        if (message.type === 'ready') {
          ready = true;
          this.starting--;
          this.slots.push(slot);
          resolve();
          this.dispatch();
        } else if (message.type === 'fatal') {
          crash = new InputError(message.message, { source: 'tape' });
          void worker.terminate();
        } else {
          const pending = slot.pending;
          slot.pending = null;
          if (message.type === 'done') pending?.resolve({ json: message.json, warnings: message.warnings ?? [] });
          else pending?.reject(errorOf(message.failure));
          this.dispatch();
        }
      });
      worker.on('error', (e) => {
        crash = e;
      });
      worker.on('exit', (code) => {
        if (!ready) {
          this.starting--;
          reject(crash ?? new CopysimError(`a simulation worker stopped while starting (exit code ${code})`));
          this.failQueueWhenNoWorker();
          return;
        }
        const index = this.slots.indexOf(slot);
        if (index >= 0) this.slots.splice(index, 1);
        if (this.closed) return;
        slot.pending?.reject(new Error(`the simulation worker stopped: ${crash?.message ?? `exit code ${code}`}`));
        // A worker that was serving dies only on a crash; replace it and keep going.
        this.spawn().catch(() => this.failQueueWhenNoWorker());
      });
    });
  }

  private failQueueWhenNoWorker(): void {
    if (this.slots.length > 0 || this.starting > 0) return;
    for (const p of this.queue.splice(0)) p.reject(new Error('no simulation worker is running'));
  }
}
