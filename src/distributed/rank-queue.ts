/**
 * `copysim rank --queue`: the wallets copied by queue workers in chunks (the `rank` job kind);
 * the producer holds the tape too, and does the rest as the local rank does (src/rank/pipeline.ts).
 */
import { InputError } from '../model/errors.js';
import type { CopyRunner } from '../rank/pipeline.js';
import type { RankedWallet } from '../rank/rank.js';
import { runOnQueue } from './producer.js';
import type { RankJobSettings } from './rank-kind.js';
import type { TapeHeaderOptions } from '../io/parquet/header.js';

export interface RankQueueOptions {
  /** The Redis URL the workers listen on. */
  readonly url: string;
  /** The header of a Parquet tape without copysim's (see `readTapeFile`), sent to the workers. */
  readonly tapeHeader?: TapeHeaderOptions;
  /** Wallets a job (default: about a hundred jobs). */
  readonly chunkSize?: number;
  readonly onNotice?: (line: string) => void;
}

/**
 * A runner sending the wallets to queue workers. `tapePath` is where the workers read the tape
 * (the same path on every machine, checked by its SHA-256).
 */
export function queueRunner(tapePath: string, queue: RankQueueOptions): CopyRunner {
  return async (_context, candidates, settings, onProgress) => {
    const rows: RankedWallet[] = [];
    const jobSettings: RankJobSettings = settings;
    await runOnQueue<RankedWallet>({
      url: queue.url,
      kind: 'rank',
      tapePath,
      ...(queue.tapeHeader !== undefined ? { tapeHeader: queue.tapeHeader } : {}),
      settings: jobSettings,
      inputs: candidates.map((c) => c.address),
      onResult: (_, row) => rows.push(row),
      inputFailure: (index, message) =>
        new InputError(`wallet ${candidates[index]!.address}: ${message}`, { source: 'wallets' }),
      ...(queue.chunkSize !== undefined ? { chunkSize: queue.chunkSize } : {}),
      ...(onProgress !== undefined ? { onProgress } : {}),
      ...(queue.onNotice !== undefined ? { onNotice: queue.onNotice } : {}),
    });
    return rows;
  };
}
