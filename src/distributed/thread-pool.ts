import { builtScriptIfAny } from '../built-script.js';
import { WorkerLostError, WorkerPool } from '../threads/pool.js';
import type { ItemResult, JobItem } from './job.js';
import type { TapeHeaderOptions } from '../io/parquet/header.js';

/** A chunk sent to a thread. */
export interface ThreadTask {
  readonly kind: string;
  /** The tape's path and hash; the thread reads the tape at `tapePath` only when the key changes. */
  readonly tapeKey: string;
  readonly tapePath: string;
  /** The header given beside a Parquet tape without copysim's. */
  readonly tapeHeader: TapeHeaderOptions;
  readonly settings: unknown;
  readonly items: readonly JobItem[];
}

/**
 * A thread's answer: the chunk's results, or the error that stopped it (`input`: the tape or the
 * settings cannot be used, which a retry would not change).
 */
export type ThreadReply = { readonly results: ItemResult[] } | { readonly error: string; readonly input: boolean };

/** A chunk that failed on the tape or the settings, not by accident: no retry helps. */
export class ThreadInputError extends Error {
  override name = 'ThreadInputError';
}

/** The compiled thread script, or null when running from the TypeScript source without a build. */
export function queueThreadUrl(): URL | null {
  return builtScriptIfAny('distributed/thread.js');
}

/**
 * A queue worker's threads: long-lived (a worker serves run after run), each running one chunk
 * at a time, the next waiting chunk as soon as it is free. A thread that dies fails its chunk
 * (the job is then retried by BullMQ) and is replaced.
 */
export class ThreadPool {
  private constructor(private readonly pool: WorkerPool<ThreadTask, ThreadReply>) {}

  static async start(size: number, url: URL): Promise<ThreadPool> {
    return new ThreadPool(await WorkerPool.start<ThreadTask, ThreadReply>({ url, size }));
  }

  /** The chunk's results; rejects with a {@link ThreadInputError} when no retry would help. */
  async run(task: ThreadTask): Promise<ItemResult[]> {
    let reply: ThreadReply;
    try {
      reply = await this.pool.run(task);
    } catch (e) {
      throw e instanceof WorkerLostError ? new Error(`a worker thread stopped: ${e.message}`) : e;
    }
    if ('error' in reply) throw reply.input ? new ThreadInputError(reply.error) : new Error(reply.error);
    return reply.results;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
