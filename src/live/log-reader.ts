import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { InputError } from '../model/errors.js';

/**
 * The header of a feed log (line 1 of `DIR/feed.jsonl`): a JSONL tape's header with no tokens
 * or native prices yet (they come as lines of their own), and `feed`, the lateness its inputs
 * were taken with.
 */
export interface FeedLogHeader {
  readonly network: string;
  readonly tokens: Record<string, never>;
  readonly native_prices: readonly never[];
  readonly feed: { readonly lateness: number };
}

/** The inputs of one group commit: the values of its lines, and the line number of the first. */
export interface FeedLogGroup {
  readonly values: unknown[];
  readonly firstLine: number;
}

/** True for the header of a feed log: an object with a `feed` member. */
export function isFeedLogHeader(value: unknown): value is FeedLogHeader {
  if (typeof value !== 'object' || value === null) return false;
  const feed = (value as { feed?: unknown }).feed;
  return typeof feed === 'object' && feed !== null && typeof (feed as { lateness?: unknown }).lateness === 'number';
}

/** The line that ends a group commit: the number of inputs in the log up to it. */
export function commitLine(inputs: number): string {
  return `{"commit":${inputs}}`;
}

const COMMIT_PREFIX = '{"commit":';
const NEWLINE = 10;
const CHUNK_BYTES = 1 << 20;

/**
 * Reads a feed log: its header, then its inputs a group commit at a time. A group is applied
 * only when its commit line is there: the lines after the last commit line were never
 * acknowledged (a write cut short by a crash) and every reader leaves them out. A line that is
 * not JSON before a commit line is a damaged log: an {@link InputError} naming it.
 *
 * @example
 * const log = new FeedLogReader('run/feed.jsonl');
 * try {
 *   for (const group of log.groups()) apply(group.values);
 * } finally {
 *   log.close();
 * }
 */
export class FeedLogReader {
  readonly header: FeedLogHeader;
  /** Bytes up to the end of the last commit line read so far (with the header's). */
  committedBytes = 0;
  /** Inputs up to the last commit line read so far. */
  committedInputs = 0;
  private readonly fd: number;
  private readonly limit: number;
  private position = 0;
  private carry: Buffer = Buffer.alloc(0);
  private line = 0;

  /** `untilByte`: read no further (the bytes a writer has committed); default the whole file. */
  constructor(
    readonly path: string,
    untilByte?: number,
  ) {
    try {
      this.fd = openSync(path, 'r');
    } catch (e) {
      throw new InputError(`${path}: ${(e as Error).message}`, { source: path });
    }
    this.limit = Math.min(untilByte ?? Infinity, fstatSync(this.fd).size);
    try {
      this.header = this.readHeader();
    } catch (e) {
      this.close();
      throw e;
    }
  }

  close(): void {
    closeSync(this.fd);
  }

  /** The committed groups, in order; {@link committedBytes} follows them. */
  *groups(): Generator<FeedLogGroup> {
    let values: unknown[] = [];
    let firstLine = this.line + 1;
    let damaged: InputError | null = null;
    for (const { text, bytes } of this.lines()) {
      if (text.startsWith(COMMIT_PREFIX)) {
        if (damaged !== null) throw damaged;
        this.checkCommit(text, values.length);
        this.committedBytes = bytes;
        yield { values, firstLine };
        values = [];
        firstLine = this.line + 1;
      } else if (damaged === null) {
        try {
          values.push(JSON.parse(text));
        } catch (e) {
          damaged = this.error(this.line, `not valid JSON before a commit line: ${(e as Error).message}`);
        }
      }
    }
  }

  private checkCommit(text: string, groupInputs: number): void {
    const count = Number(text.slice(COMMIT_PREFIX.length, -1));
    this.committedInputs += groupInputs;
    if (count !== this.committedInputs) {
      throw this.error(
        this.line,
        `the commit line counts ${count} inputs, but ${this.committedInputs} precede it: lines were lost`,
      );
    }
  }

  private readHeader(): FeedLogHeader {
    const first = this.lines().next();
    const text = first.done === true ? '' : first.value.text;
    let header: unknown;
    try {
      header = JSON.parse(text);
    } catch {
      throw this.error(1, 'expected the header of a feed log {"network", "tokens", "native_prices", "feed"}');
    }
    if (!isFeedLogHeader(header))
      throw this.error(1, 'not a feed log: its header has no "feed": {"lateness": seconds}');
    if (first.done !== true) this.committedBytes = first.value.bytes;
    return header;
  }

  /** The complete lines from where reading stopped, each with the bytes read up to its end. */
  private *lines(): Generator<{ text: string; bytes: number }> {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    for (;;) {
      const end = this.carry.indexOf(NEWLINE);
      if (end >= 0) {
        const text = this.carry.toString('utf8', 0, end);
        this.carry = this.carry.subarray(end + 1);
        this.line++;
        if (text.trim() !== '') yield { text, bytes: this.position - this.carry.length };
        continue;
      }
      const n =
        this.position >= this.limit
          ? 0
          : readSync(this.fd, chunk, 0, Math.min(CHUNK_BYTES, this.limit - this.position), this.position);
      // A last line without its newline was cut short by a crash: never committed, left out.
      if (n === 0) return;
      this.position += n;
      this.carry = Buffer.concat([this.carry, chunk.subarray(0, n)]);
    }
  }

  private error(line: number, message: string): InputError {
    return new InputError(`${this.path}: line ${line}: ${message}`, { source: this.path, line });
  }
}
