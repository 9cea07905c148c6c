/**
 * A worker's tapes: the job names a path and a SHA-256; the file at that path must hash to it.
 * The last tape read stays loaded (indexed and packed for the threads), so the jobs of one run
 * read and index it once per worker process.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { IndexedTape } from '../engine/tape-index.js';
import { CopysimError } from '../model/errors.js';
import { readTapeFile } from '../io/read-tape.js';
import { packTape } from '../sweep/tape-transfer.js';
import type { TapeRef } from './job.js';
import type { TapeLoaderReply } from './tape-loader.js';

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

/** A tape as the worker's threads get it. */
export interface LoadedTape {
  /** Path and hash: the threads' cache key. */
  readonly key: string;
  /** The indexed tape packed for the threads, or the indexed tape itself when there are none. */
  readonly packed: SharedArrayBuffer | null;
  readonly tape: IndexedTape | null;
}

export class TapeStore {
  private last: { key: string; loaded: Promise<LoadedTape> } | null = null;

  /** `pack`: the threads get the tape packed; without threads it stays an indexed tape. */
  constructor(private readonly pack: boolean) {}

  /** The job's tape, read and checked on first use; rejects with a {@link TapeCheckError}. */
  get(ref: TapeRef): Promise<LoadedTape> {
    const key = `${ref.sha256} ${ref.path}`;
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
        `the job's tape ${ref.path} cannot be read ${where}: ${why}; the producer and every worker must see the tape at the same path (shared storage)`,
      );
    }
    if (actual !== ref.sha256) {
      throw new TapeCheckError(
        `the job's tape ${ref.path} has SHA-256 ${actual} ${where} but the job expects ${ref.sha256}: the worker's file is not the producer's`,
      );
    }
    if (!this.pack) return { key, packed: null, tape: readTapeFile(ref.path) };
    const loader = tapeLoaderUrl();
    return { key, packed: loader === null ? packTape(readTapeFile(ref.path)) : await loadInThread(loader, ref.path), tape: null };
  }
}

function tapeLoaderUrl(): URL | null {
  const url = new URL('./tape-loader.js', import.meta.url);
  return url.pathname.endsWith('.js') && existsSync(fileURLToPath(url)) ? url : null;
}

/** Reads, indexes and packs the tape in a thread of its own (see tape-loader.ts). */
function loadInThread(url: URL, path: string): Promise<SharedArrayBuffer> {
  return new Promise((resolve, reject) => {
    const thread = new Worker(url, { workerData: { path } });
    thread.once('message', (reply: TapeLoaderReply) => {
      if ('packed' in reply) resolve(reply.packed);
      else reject(reply.input ? new TapeCheckError(reply.error) : new Error(reply.error));
      void thread.terminate();
    });
    thread.once('error', reject);
    thread.once('exit', (code) => reject(new Error(`the tape's loader thread stopped with exit code ${code}`)));
  });
}
