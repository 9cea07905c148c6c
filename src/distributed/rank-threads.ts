/**
 * `copysim rank` on the machine's cores: the wallets split into as many parts as there are
 * threads, of about equal numbers of swaps, each part copied by a thread of the queue workers'
 * pool as the followers of one walk of the tape (the `rank` job kind, without Redis). The tape
 * is packed once into shared memory; each thread copies it out.
 */
import { InputError } from '../model/errors.js';
import type { CopyRunner } from '../rank/async-rank.js';
import { copyWallets, type Candidate, type RankedWallet } from '../rank/rank.js';
import { packTape } from '../sweep/tape-transfer.js';
import type { JobItem } from './job.js';
import { queueThreadUrl, ThreadPool } from './thread-pool.js';

/** A runner on `threads` worker threads, and how to stop them. With 0 threads (or no compiled thread script) it copies in the calling thread. */
export function threadRunner(threads: number): { readonly runner: CopyRunner; close(): Promise<void> } {
  const url = threads > 0 ? queueThreadUrl() : null;
  let pool: ThreadPool | null = null;
  let packed: { tape: object; key: string; buffer: SharedArrayBuffer } | null = null;
  let tapes = 0;
  const runner: CopyRunner = async (context, candidates, settings, onProgress) => {
    if (url === null || candidates.length === 0) return copyWallets(context, candidates, onProgress);
    if (packed?.tape !== context.tape) packed = { tape: context.tape, key: `local-${tapes++}`, buffer: packTape(context.tape) };
    pool ??= new ThreadPool(threads, url);
    const parts = balancedParts(candidates, (c) => context.buckets.walletPositions(c.id).length, threads);
    let done = 0;
    onProgress?.(0, candidates.length);
    const answers = await Promise.all(
      parts.map(async ({ first, count }) => {
        const items: JobItem<string>[] = candidates.slice(first, first + count).map((c, k) => ({ index: first + k, input: c.address }));
        const results = await pool!.run({ kind: 'rank', tapeKey: packed!.key, tape: packed!.buffer, settings, items });
        done += count;
        onProgress?.(done, candidates.length);
        return results;
      }),
    );
    const rows: RankedWallet[] = [];
    for (const result of answers.flat()) {
      if ('failure' in result) throw new InputError(`wallet ${candidates[result.index]!.address}: ${result.failure}`, { source: 'wallets' });
      rows.push(result.output as RankedWallet);
    }
    return rows;
  };
  return { runner, close: async () => void (await pool?.close()) };
}

/**
 * Splits candidates, in order, into at most `parts` runs of consecutive candidates whose
 * weights (their swaps) are about equal: each run ends once it holds its share of the total.
 */
export function balancedParts(candidates: readonly Candidate[], weightOf: (c: Candidate) => number, parts: number): { first: number; count: number }[] {
  const weights = candidates.map(weightOf);
  const total = weights.reduce((a, b) => a + b, 0);
  const out: { first: number; count: number }[] = [];
  let first = 0;
  let sum = 0;
  weights.forEach((w, k) => {
    sum += w;
    if (out.length < parts - 1 && sum >= (total * (out.length + 1)) / parts) {
      out.push({ first, count: k + 1 - first });
      first = k + 1;
    }
  });
  if (first < candidates.length) out.push({ first, count: candidates.length - first });
  return out;
}
