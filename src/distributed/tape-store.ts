/**
 * A worker's tapes: the job names a path and a SHA-256; the file at that path must hash to it.
 * The last tape checked stays known (and, without threads, loaded), so the jobs of one run check
 * it once per worker process; each thread reads and indexes it once (thread.ts).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { hostname } from 'node:os';
import type { IndexedTape } from '../engine/tape-index.js';
import { CopysimError } from '../model/errors.js';
import { readTapeFile } from '../io/read-tape.js';
import type { TapeRef } from './job.js';
import type { TapeHeaderOptions } from '../io/parquet/header.js';

/** A job's tape is missing on a worker or is not the producer's file. */
export class TapeCheckError extends CopysimError {
  override name = 'TapeCheckError';
}

/** SHA-256 of a file's bytes, lowercase hex, read as a stream. */
export function fileSha256(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
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

  /** `threads`: the worker's threads read the tape themselves; without threads it is read here. */
  constructor(private readonly threads: boolean) {}

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
    let actual: string;
    try {
      actual = await fileSha256(ref.path);
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
