/**
 * A worker's tapes: the job names a path and a SHA-256; the file at that path must hash to it.
 * The last tape checked stays known (and, without threads, loaded), so the jobs of every run on
 * it check it once per worker process; each thread reads and indexes it once (thread.ts). A
 * hash recorded on this machine for this version of the file (tape-hash.ts) spares the hashing.
 */
import { hostname } from 'node:os';
import type { IndexedTape } from '../engine/tape-index.js';
import { CopysimError } from '../model/errors.js';
import { readTapeFile } from '../io/read-tape.js';
import type { TapeRef } from './job.js';
import type { TapeHeaderOptions } from '../io/parquet/header.js';
import { tapeSha256, type HashStore } from './tape-hash.js';

/** A job's tape is missing on a worker or is not the producer's file. */
export class TapeCheckError extends CopysimError {
  override name = 'TapeCheckError';
}

/** A checked tape: the threads read it at `path`; without threads it is read here. */
export interface LoadedTape {
  /** Path, hash and the header given beside the file: the threads' cache key. */
  readonly key: string;
  readonly path: string;
  /** The header of a Parquet file without copysim's, as the job gave it. */
  readonly header: TapeHeaderOptions;
  /** The indexed tape when there are no threads. */
  readonly tape: IndexedTape | null;
}

export class TapeStore {
  private last: { key: string; loaded: Promise<LoadedTape> } | null = null;

  /**
   * `threads`: the worker's threads read the tape themselves; without threads it is read here.
   * `hashes`: where hashes are recorded (the queue's Redis).
   */
  constructor(
    private readonly threads: boolean,
    private readonly hashes?: () => Promise<HashStore>,
  ) {}

  /** The job's tape, read and checked on first use; rejects with a {@link TapeCheckError}. */
  get(ref: TapeRef): Promise<LoadedTape> {
    const key = `${ref.sha256} ${ref.path}${ref.header === undefined ? '' : ` ${JSON.stringify(ref.header)}`}`;
    if (this.last?.key !== key) {
      const loaded = this.load(ref, key);
      this.last = { key, loaded };
      // A tape that failed to load is tried again by the next job that names it.
      loaded.catch(() => {
        if (this.last?.key === key) this.last = null;
      });
    }
    return this.last!.loaded;
  }

  private async load(ref: TapeRef, key: string): Promise<LoadedTape> {
    const where = `on this worker (${hostname()})`;
    // Without an answer from Redis the tape is simply hashed.
    const store = await this.hashes?.().catch(() => undefined);
    let actual: string;
    try {
      actual = await tapeSha256(ref.path, store);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'no such file' : (e as Error).message;
      throw new TapeCheckError(
        `the job's tape ${ref.path} cannot be read ${where}: ${why}` +
          `; the producer and every worker must see the tape at the same path (shared storage)`,
      );
    }
    if (actual !== ref.sha256) {
      throw new TapeCheckError(
        `the job's tape ${ref.path} has SHA-256 ${actual} ${where} but the job expects ${ref.sha256}` +
          `: the worker's file is not the producer's`,
      );
    }
    const header = ref.header ?? {};
    return { key, path: ref.path, header, tape: this.threads ? null : readTapeFile(ref.path, header) };
  }
}
