/**
 * The one worker-thread pool of copysim: the sweep's threads, a queue worker's threads and the
 * HTTP service's simulation workers are each a thin use of it. A worker answers every task it
 * is sent with exactly one message, in order, so a task needs no id to find its reply.
 */
import { Worker } from 'node:worker_threads';

/** A task's worker stopped before answering it: it threw (`error`), or it exited (`exitCode`). */
export class WorkerLostError extends Error {
  override name = 'WorkerLostError';
  constructor(
    readonly exitCode: number,
    readonly error?: Error,
  ) {
    // What the users print after their own "… stopped: ".
    super(error?.message ?? `exit code ${exitCode}`);
  }
}

/** A task given to a pool that is closed, or still waiting (or running) when it closed. */
export class PoolClosedError extends Error {
  override name = 'PoolClosedError';
  constructor() {
    super('the worker pool is closed');
  }
}

/** A task waiting when no worker is left to run it: every replacement of a lost one failed to start. */
export class NoWorkerError extends Error {
  override name = 'NoWorkerError';
  constructor() {
    super('no worker is running');
  }
}

export interface WorkerPoolOptions {
  /** The compiled worker script. */
  readonly url: URL;
  /** Workers started. */
  readonly size: number;
  /** What every worker starts with (`workerData`). */
  readonly workerData?: unknown;
  /**
   * Reads a worker's first message, when the worker sends one before it takes tasks (its tapes
   * loaded, say): null when it is ready, or the error that fails its start. Without it a worker
   * takes tasks at once.
   */
  readonly handshake?: (message: unknown) => Error | null;
}

interface Pending<Task, Reply> {
  readonly task: Task;
  readonly resolve: (reply: Reply) => void;
  readonly reject: (error: Error) => void;
}

interface Slot<Task, Reply> {
  readonly worker: Worker;
  pending: Pending<Task, Reply> | null;
}

/**
 * Worker threads running tasks of type `Task`, one at a time each; a task waits for the first
 * free worker. A worker lost while running a task fails that task with a {@link WorkerLostError}
 * and is replaced, so the pool keeps its size. Closing it stops every worker and fails the tasks
 * it has not answered with a {@link PoolClosedError}.
 *
 * @example
 * const pool = await WorkerPool.start<Job, Answer>({ url, size: 4 });
 * const answers = await Promise.all(jobs.map((job) => pool.run(job)));
 * await pool.close();
 */
export class WorkerPool<Task, Reply> {
  private readonly slots: Slot<Task, Reply>[] = [];
  private readonly waiting: Pending<Task, Reply>[] = [];
  /** Every worker not yet exited, ready or starting: what `close` stops. */
  private readonly workers = new Set<Worker>();
  private starting = 0;
  private closed = false;

  private constructor(private readonly options: WorkerPoolOptions) {}

  /**
   * Starts the workers and waits until every one is ready; when one cannot start, stops the
   * others and rejects with its error (the handshake's, or a {@link WorkerLostError}).
   */
  static async start<Task, Reply>(options: WorkerPoolOptions): Promise<WorkerPool<Task, Reply>> {
    const pool = new WorkerPool<Task, Reply>(options);
    try {
      await Promise.all(Array.from({ length: options.size }, () => pool.spawn()));
    } catch (e) {
      await pool.close();
      throw e;
    }
    return pool;
  }

  /** Workers ready. */
  get size(): number {
    return this.slots.length;
  }

  /** Tasks waiting for a worker. */
  get queued(): number {
    return this.waiting.length;
  }

  /** The worker's reply to `task`, run on the first free worker. */
  run(task: Task): Promise<Reply> {
    if (this.closed) return Promise.reject(new PoolClosedError());
    return new Promise((resolve, reject) => {
      this.waiting.push({ task, resolve, reject });
      this.dispatch();
    });
  }

  /** Stops every worker; the tasks not yet answered are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    const unanswered = [...this.waiting.splice(0), ...this.slots.flatMap((slot) => slot.pending ?? [])];
    for (const slot of this.slots) slot.pending = null;
    this.slots.length = 0;
    for (const pending of unanswered) pending.reject(new PoolClosedError());
    await Promise.all([...this.workers].map((worker) => worker.terminate()));
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.waiting.length === 0) return;
      if (slot.pending !== null) continue;
      slot.pending = this.waiting.shift()!;
      slot.worker.postMessage(slot.pending.task);
    }
  }

  /** One worker, ready once its handshake (if any) accepts it; rejects when it stops first. */
  private spawn(): Promise<void> {
    this.starting++;
    return new Promise<void>((resolve, reject) => {
      const worker = new Worker(this.options.url, { workerData: this.options.workerData });
      this.workers.add(worker);
      const slot: Slot<Task, Reply> = { worker, pending: null };
      let ready = false;
      let refused: Error | null = null;
      let thrown: Error | undefined;
      const accept = (): void => {
        ready = true;
        this.starting--;
        resolve();
        if (this.closed) return void worker.terminate();
        this.slots.push(slot);
        this.dispatch();
      };
      worker.on('message', (message: unknown) => {
        if (ready) return this.answer(slot, message as Reply);
        refused = this.options.handshake!(message);
        if (refused === null) accept();
        else void worker.terminate();
      });
      worker.on('error', (e) => (thrown = e));
      worker.on('exit', (code) => {
        this.workers.delete(worker);
        if (ready) return this.lost(slot, new WorkerLostError(code, thrown));
        this.starting--;
        reject(refused ?? new WorkerLostError(code, thrown));
        this.failWaitingWhenNoWorker();
      });
      if (this.options.handshake === undefined) accept();
    });
  }

  private answer(slot: Slot<Task, Reply>, reply: Reply): void {
    const pending = slot.pending;
    slot.pending = null;
    pending?.resolve(reply);
    this.dispatch();
  }

  /** A ready worker exited: its task fails, and a new worker takes its place. */
  private lost(slot: Slot<Task, Reply>, error: WorkerLostError): void {
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
    if (this.closed) return;
    slot.pending?.reject(error);
    slot.pending = null;
    this.spawn().catch(() => this.failWaitingWhenNoWorker());
  }

  private failWaitingWhenNoWorker(): void {
    if (this.slots.length > 0 || this.starting > 0) return;
    for (const pending of this.waiting.splice(0)) pending.reject(new NoWorkerError());
  }
}
