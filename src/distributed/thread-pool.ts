import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ItemResult, JobItem } from './job.js';

/** A chunk sent to a thread. */
export interface ThreadTask {
  readonly id: number;
  readonly kind: string;
  /** The tape's path and hash; the thread reads the tape at `tapePath` only when the key changes. */
  readonly tapeKey: string;
  readonly tapePath: string;
  readonly settings: unknown;
  readonly items: readonly JobItem[];
}

/**
 * A thread's answer: the chunk's results, or the error that stopped it (`input`: the tape or the
 * settings cannot be used, which a retry would not change).
 */
export type ThreadReply =
  | { readonly id: number; readonly results: ItemResult[] }
  | { readonly id: number; readonly error: string; readonly input: boolean };

/** A chunk that failed on the tape or the settings, not by accident: no retry helps. */
export class ThreadInputError extends Error {
  override name = 'ThreadInputError';
}

/** The compiled thread script, or null when running from the TypeScript source without a build. */
export function queueThreadUrl(): URL | null {
  const here = import.meta.url;
  const url = here.endsWith('.ts') ? new URL('../../dist/src/distributed/thread.js', here) : new URL('./thread.js', here);
  return existsSync(fileURLToPath(url)) ? url : null;
}

interface Pending {
  readonly task: ThreadTask;
  readonly resolve: (results: ItemResult[]) => void;
  readonly reject: (error: Error) => void;
}

/**
 * A queue worker's threads: long-lived (a worker serves run after run), each running one chunk
 * at a time, the next waiting chunk as soon as it is free. A thread that dies fails its chunk
 * (the job is then retried by BullMQ) and is replaced.
 */
export class ThreadPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Pending>();
  private readonly waiting: Pending[] = [];
  private nextId = 0;
  private closed = false;

  constructor(
    readonly size: number,
    private readonly url: URL,
  ) {
    for (let i = 0; i < size; i++) this.idle.push(this.start());
  }

  run(task: Omit<ThreadTask, 'id'>): Promise<ItemResult[]> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ task: { ...task, id: this.nextId++ }, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.idle, ...this.busy.keys()];
    this.idle.length = 0;
    await Promise.all(all.map((w) => w.terminate()));
  }

  private start(): Worker {
    const worker = new Worker(this.url);
    worker.on('message', (reply: ThreadReply) => {
      const pending = this.busy.get(worker);
      if (pending === undefined) return;
      this.busy.delete(worker);
      this.idle.push(worker);
      if ('error' in reply) pending.reject(reply.input ? new ThreadInputError(reply.error) : new Error(reply.error));
      else pending.resolve(reply.results);
      this.dispatch();
    });
    const lost = (why: string): void => {
      const pending = this.busy.get(worker);
      this.busy.delete(worker);
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
      pending?.reject(new Error(`a worker thread stopped: ${why}`));
      if (!this.closed) {
        this.idle.push(this.start());
        this.dispatch();
      }
    };
    worker.on('error', (e) => lost(e.message));
    worker.on('exit', (code) => {
      if (!this.closed && (this.busy.has(worker) || this.idle.includes(worker))) lost(`exit code ${code}`);
    });
    return worker;
  }

  private dispatch(): void {
    while (this.idle.length > 0 && this.waiting.length > 0) {
      const worker = this.idle.pop()!;
      const pending = this.waiting.shift()!;
      this.busy.set(worker, pending);
      worker.postMessage(pending.task);
    }
  }
}
