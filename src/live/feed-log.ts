import { closeSync, fsyncSync, openSync, renameSync, writeFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { commitLine, type FeedLogHeader } from './log-reader.js';

/** A batch waiting for its group commit. */
interface Pending {
  readonly text: string;
  readonly inputs: number;
  readonly onDurable: () => void;
  readonly resolve: () => void;
  readonly reject: (e: Error) => void;
}

/**
 * The durable log of a live run, `DIR/feed.jsonl`: a JSONL tape (header, then one input a line)
 * appended to with group commits. The batches that arrive while a write is on its way wait
 * for the next one; each write ends with a commit line and is flushed to disk (`fdatasync`)
 * before its batches are applied and acknowledged, in the order they came. Many batches share
 * one flush, so the disk's latency is paid once per group, not once per batch.
 *
 * @example
 * const log = await FeedLog.create('run/feed.jsonl', header);
 * await log.append(['{"tick":1710028800}'], 1, () => apply(batch)); // on disk, then applied
 */
export class FeedLog {
  private pending: Pending[] = [];
  private flushing = false;
  private failure: Error | null = null;

  private constructor(
    private readonly handle: FileHandle,
    /** Bytes of the log on disk, to its last commit line. */
    private bytes: number,
    /** Inputs of the log on disk. */
    private inputs: number,
  ) {}

  /** Writes a new log holding its header alone, whole or not at all (a file renamed into place). */
  static async create(path: string, header: FeedLogHeader): Promise<FeedLog> {
    const text = `${JSON.stringify(header)}\n`;
    const temporary = `${path}.new`;
    writeFileSync(temporary, text);
    syncPath(temporary, 'r+');
    renameSync(temporary, path);
    syncPath(dirname(path), 'r');
    return FeedLog.reopen(path, Buffer.byteLength(text), 0);
  }

  /**
   * Opens a log read to its last commit line (`bytes`, holding `inputs` inputs) for appending:
   * what follows that line (a write cut short) is cut off first.
   */
  static async reopen(path: string, bytes: number, inputs: number): Promise<FeedLog> {
    const handle = await open(path, 'r+');
    if ((await handle.stat()).size !== bytes) {
      await handle.truncate(bytes);
      await handle.sync();
    }
    return new FeedLog(handle, bytes, inputs);
  }

  /** Bytes of the log committed to disk (the header's included). */
  get committedBytes(): number {
    return this.bytes;
  }

  /** Inputs of the log committed to disk: a feeder that restarts resumes after them. */
  get committedInputs(): number {
    return this.inputs;
  }

  /**
   * Appends the lines of one batch; once they are on disk, calls `onDurable` (in the order the
   * batches came), then resolves. Rejects when the disk fails: then the batch is not applied,
   * and nothing more is taken.
   */
  append(lines: readonly string[], onDurable: () => void): Promise<void> {
    if (this.failure !== null) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.pending.push({
        text: lines.length === 0 ? '' : `${lines.join('\n')}\n`,
        inputs: lines.length,
        onDurable,
        resolve,
        reject,
      });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    while (this.pending.length > 0 && this.failure === null) {
      const group = this.pending;
      this.pending = [];
      const inputs = group.reduce((n, b) => n + b.inputs, this.inputs);
      const buffer = Buffer.from(`${group.map((b) => b.text).join('')}${commitLine(inputs)}\n`);
      try {
        await this.handle.write(buffer, 0, buffer.length, this.bytes);
        await this.handle.datasync();
      } catch (e) {
        this.failure = e as Error;
        for (const b of [...group, ...this.pending]) b.reject(this.failure);
        this.pending = [];
        break;
      }
      this.bytes += buffer.length;
      this.inputs = inputs;
      for (const b of group) {
        try {
          b.onDurable();
          b.resolve();
        } catch (e) {
          b.reject(e as Error);
        }
      }
    }
    this.flushing = false;
  }

  /** Waits for the writes under way, then closes the file. */
  async close(): Promise<void> {
    while (this.flushing) await new Promise((resolve) => setImmediate(resolve));
    await this.handle.close();
  }
}

/** Flushes a file or a folder (the entry of a file renamed into it) to disk. */
function syncPath(path: string, flags: string): void {
  const fd = openSync(path, flags);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
