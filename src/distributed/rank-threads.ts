/**
 * `copysim rank --workers N`: the wallets copied by N walks of the tape at once, this thread's and
 * those of N − 1 threads, each a queue worker's thread (`thread.ts`) without the queue. Each
 * thread reads and indexes the tape itself while this thread reads it too: a read costs less than
 * packing the tape once and unpacking it in every thread. The wallets are cut into N runs of
 * consecutive candidates, weighed by their swaps; this thread copies the first while the threads
 * copy the others, and the rows come back in the candidates' order: the rows of the local rank,
 * byte for byte.
 */
import { InputError } from '../model/errors.js';
import { copyWallets, type Candidate, type RankContext, type RankedWallet } from '../rank/rank.js';
import type { CopyRunner } from '../rank/pipeline.js';
import type { TapeHeaderOptions } from '../io/parquet/header.js';
import type { ItemResult, JobItem } from './job.js';
import type { RankJobSettings } from './rank-kind.js';
import { ThreadInputError, ThreadPool, type ThreadTask } from './thread-pool.js';

export interface RankThreadsOptions {
  /** Threads started beside this one (at least 1). */
  readonly threads: number;
  /** The compiled thread script (`queueThreadUrl()`). */
  readonly url: URL;
  /** The header of a Parquet tape without copysim's (see `readTapeFile`). */
  readonly tapeHeader?: TapeHeaderOptions;
}

/** A runner on this thread and the threads, and what stops the threads once the rank is done. */
export interface RankThreads {
  readonly runner: CopyRunner;
  readonly close: () => Promise<void>;
}

/**
 * Starts the threads and has each read the tape at `tapePath` at once, so that their reading
 * overlaps this thread's; the runner then shares each window's wallets among them and this thread.
 */
export async function startRankThreads(tapePath: string, options: RankThreadsOptions): Promise<RankThreads> {
  const pool = await ThreadPool.start(options.threads, options.url);
  const task = (settings: RankJobSettings | null, items: readonly JobItem[]): ThreadTask => ({
    kind: 'rank',
    tapeKey: `local ${tapePath}`,
    tapePath,
    tapeHeader: options.tapeHeader ?? {},
    settings,
    items,
  });
  // A task without items only reads the tape. Its failure (the tape unreadable) comes back with
  // the thread's first run of wallets, as a queue worker's does.
  for (let k = 0; k < options.threads; k++) pool.run(task(null, [])).catch(() => undefined);
  const runner: CopyRunner = async (context, candidates, settings, onProgress) => {
    const [here = [], ...there] = weighedChunks(context, candidates, options.threads + 1);
    let done = 0;
    const copied = Promise.all(
      there.map(async (chunk) => {
        const items = chunk.map((c, k) => ({ index: k, input: c.address }));
        const results = await pool.run(task(settings, items)).catch((e: unknown) => {
          throw e instanceof ThreadInputError ? new InputError(e.message, { source: 'tape' }) : e;
        });
        done += chunk.length;
        onProgress?.(done, candidates.length);
        return results.map((result, k) => rowOf(result, chunk[k]!));
      }),
    );
    copied.catch(() => undefined); // awaited below, once this thread's run is copied
    const rows = copyWallets(context, here, onProgress && ((d) => onProgress(d, candidates.length)));
    done += here.length;
    return rows.concat(...(await copied));
  };
  return { runner, close: () => pool.close() };
}

/** A chunk's row for a wallet, or the error of a wallet the thread could not copy. */
function rowOf(result: ItemResult, candidate: Candidate): RankedWallet {
  if ('failure' in result) {
    throw new InputError(`wallet ${candidate.address}: ${result.failure}`, { source: 'wallets' });
  }
  return result.output as RankedWallet;
}

/**
 * The candidates cut into at most `count` runs of consecutive wallets, each holding about as
 * many of the wallets' swaps as the others (a follower's work grows with its wallet's swaps).
 * A run ends once it holds its share of what is left, so no run is empty.
 */
export function weighedChunks(
  context: Pick<RankContext, 'buckets'>,
  candidates: readonly Candidate[],
  count: number,
): Candidate[][] {
  const weights = candidates.map((c) => Math.max(1, context.buckets.walletPositions(c.id).length));
  let left = weights.reduce((a, b) => a + b, 0);
  const chunks: Candidate[][] = [];
  let at = 0;
  for (let runs = Math.min(count, candidates.length); runs > 0; runs--) {
    const share = left / runs;
    const chunk: Candidate[] = [];
    let weight = 0;
    // Takes wallets while the run is under its share, leaving one for each run after it.
    while (at < candidates.length - (runs - 1) && (chunk.length === 0 || weight + weights[at]! / 2 <= share)) {
      weight += weights[at]!;
      chunk.push(candidates[at++]!);
    }
    left -= weight;
    chunks.push(chunk);
  }
  return chunks;
}
