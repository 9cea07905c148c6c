/**
 * A queue worker: takes jobs from the copysim queue on Redis and runs `threads` of them at once,
 * each on a worker thread. Claims, retries and stalled jobs are BullMQ's: a job's lock is
 * renewed while it runs; when its worker stops answering (killed, machine down), the lock
 * lapses after `lockSeconds` and the next stalled-job check hands the job to another worker.
 */
import type { IndexedTape } from '../engine/tape-index.js';
import { CopysimError } from '../model/errors.js';
import { loadBullmq } from './dependencies.js';
import { QUEUE_NAME, type ItemResult, type JobData, type JobKind, type JobResult } from './job.js';
import { JOB_KINDS, runItems } from './job-kinds.js';
import { checkRedis, redisOptions, shownUrl } from './redis.js';
import { TapeStore, type LoadedTape } from './tape-store.js';
import { collectYoungGeneration } from '../threads/young-collection.js';
import { queueThreadUrl, ThreadInputError, ThreadPool } from './thread-pool.js';

export interface QueueWorkerOptions {
  readonly url: string;
  /** Jobs run at once, each on its own thread. */
  readonly threads: number;
  /** How long a job stays claimed by a worker that stops answering (default 30). */
  readonly lockSeconds?: number;
  /** One line of news (a job that failed, a connection problem), without its newline. */
  readonly log?: (line: string) => void;
}

export interface QueueWorker {
  /** Stops taking jobs, waits for those under way, disconnects. */
  close(): Promise<void>;
}

/** Starts a worker; rejects with a one-line error when Redis does not answer. */
export async function startQueueWorker(options: QueueWorkerOptions): Promise<QueueWorker> {
  const { Worker, UnrecoverableError } = loadBullmq();
  await checkRedis(options.url);
  const log = options.log ?? (() => {});
  const lockMs = Math.round((options.lockSeconds ?? 30) * 1000);
  const threadUrl = queueThreadUrl();
  const pool = threadUrl !== null ? await ThreadPool.start(options.threads, threadUrl) : null;
  // The worker is made below, before any job can ask for its connection.
  const tapes = new TapeStore(pool !== null, async () => worker.getBackend().client);
  const runHere = pool === null ? hereRunner() : null;

  const processJob = async (job: { id?: string; data: JobData }): Promise<JobResult> => {
    const data = job.data;
    const kind = JOB_KINDS.get(data.kind);
    if (kind === undefined) {
      throw new UnrecoverableError(
        `unknown job kind "${data.kind}" (this worker runs ${[...JOB_KINDS.keys()].join(', ')})` +
          `: is it an older copysim?`,
      );
    }
    let loaded: Awaited<ReturnType<typeof tapes.get>>;
    try {
      loaded = await tapes.get(data.tape);
    } catch (e) {
      // The same tape gives the same answer on a retry: fail the job now, with the reason.
      if (e instanceof CopysimError) throw new UnrecoverableError(e.message);
      throw e;
    }
    if (pool !== null) {
      try {
        return {
          items: await pool.run({
            kind: kind.name,
            tapeKey: loaded.key,
            tapePath: loaded.path,
            tapeHeader: loaded.header,
            settings: data.settings,
            items: data.items,
          }),
        };
      } catch (e) {
        // A tape that cannot be read, or settings that cannot be used, give the same answer on a retry.
        if (e instanceof ThreadInputError) throw new UnrecoverableError(e.message);
        throw e;
      }
    }
    return { items: runHere!(kind, loaded, data) };
  };

  const worker = new Worker<JobData, JobResult>(QUEUE_NAME, processJob, {
    connection: { ...redisOptions(options.url), maxRetriesPerRequest: null },
    concurrency: options.threads,
    lockDuration: lockMs,
    stalledInterval: lockMs,
    maxStalledCount: 2,
  });
  worker.on('failed', (job, error) => log(`job ${job?.id ?? '?'} failed: ${error.message}`));
  let lastError = '';
  worker.on('error', (error) => {
    // ioredis repeats a lost connection's error at every retry: say it once.
    if (error.message !== lastError) log(`${shownUrl(options.url)}: ${error.message}`);
    lastError = error.message;
  });
  await worker.waitUntilReady();
  return {
    async close() {
      await worker.close();
      await pool?.close();
    },
  };
}

/**
 * Runs chunks in this thread, when there are no worker threads (running from the TypeScript
 * source), keeping what each kind prepared from the tape held here. This thread is then the host
 * of the walks: it collects the young generation between them.
 */
function hereRunner(): (kind: JobKind, loaded: LoadedTape, data: JobData) => ItemResult[] {
  let local: { key: string; contexts: Map<string, unknown> } | null = null;
  return (kind, loaded, data) => {
    if (local?.key !== loaded.key) local = { key: loaded.key, contexts: new Map() };
    const settingsKey = `${kind.name} ${JSON.stringify(data.settings)}`;
    if (!local.contexts.has(settingsKey)) {
      local.contexts.set(settingsKey, kind.prepare(loaded.tape as IndexedTape, data.settings));
    }
    return runItems(kind, local.contexts.get(settingsKey), data.items, collectYoungGeneration);
  };
}
