import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { InputError, type InputLocation } from '../../model/errors.js';
import {
  awaitPost,
  countTaken,
  POSTED,
  startReadingThread,
  stopReadingThread,
  type ThreadLink,
} from '../reading-thread.js';
import { ColumnsReceiver, type WireColumns } from './column-wire.js';
import type { TapeHeaderOptions } from './header.js';
import type { OptionalColumn } from './format.js';
import type { ParquetTapeFile } from './read.js';
import type { DecodedColumns, DecodedRowGroup } from './row-group.js';

/**
 * Row groups that may be decoded beyond the one the reader takes next, by either thread: memory
 * for as many more. One lets each thread decode a group at once.
 */
export const AHEAD = 1;
/**
 * The place in the shared counters, after those of `reading-thread.ts`, of the next row group
 * nobody has claimed (each thread claims a group before decoding it).
 */
export const NEXT = 2;
/** How long the reader waits for a row group before it calls the decoding thread lost. */
const STALL_MS = 60_000;

/** What the decoding thread is given; it posts a reply for each row group it claims. */
export interface DecodeStart extends ThreadLink {
  readonly path: string;
  readonly headerOptions: TapeHeaderOptions;
  readonly without: readonly OptionalColumn[];
}

/** A row group's columns and their check, or the error that ended the decoding. */
export type DecodeReply = { readonly group: number } & (
  | { readonly columns: WireColumns; readonly valid: boolean; readonly priceWords: Float64Array | null }
  | { readonly error: string; readonly location?: InputLocation }
);

/** A row group decoded by either thread, or what made it undecodable (thrown at its turn). */
type Decoded = DecodedColumns | { readonly error: Error };

/**
 * The row groups of `file`, as {@link ParquetTapeFile.rowGroups} gives them, decoded by this
 * thread and a thread of its own together: reading, decompressing and checking a row group's
 * columns is about a seventh of a simulation from Parquet, and most of a stream of swaps few
 * of which are copied, while the second core is otherwise idle. Each thread claims the next
 * group nobody has (a shared counter) and decodes it: the other thread whenever it can, this
 * one when the group it needs next is unclaimed, or while it waits for the other's. At most
 * {@link AHEAD} groups are decoded ahead of the one being read, so a tape of any size still
 * streams. A file of one row group (nothing to share), a build without the compiled thread
 * script (the TypeScript sources run unbuilt), or a process that cannot start a thread, is
 * decoded here alone. An error in a group is thrown when that group's turn comes, with the
 * message the decoding here gives.
 */
export function* rowGroupsAhead(
  file: ParquetTapeFile,
  without: readonly OptionalColumn[],
  /** False: this thread decodes no group, the other thread every one (for tests of its side). */
  decodeHere = true,
): Generator<DecodedRowGroup> {
  const data: Omit<DecodeStart, keyof ThreadLink> = { path: file.path, headerOptions: file.headerOptions, without };
  const thread = file.rowGroupCount > 1 ? startReadingThread('io/parquet/decode-thread.js', data) : null;
  if (thread === null) {
    yield* file.rowGroups(without);
    return;
  }
  try {
    const groups = new SharedDecoding(file, new Set(without), thread.signal, thread.port, decodeHere);
    yield* file.rowGroups(without, (g) => groups.take(g));
  } finally {
    stopReadingThread(thread);
  }
}

/** The reader's side of the decoding shared with the thread. */
class SharedDecoding {
  /** Groups decoded by either thread and not yet taken, by number. */
  private readonly ready = new Map<number, Decoded>();
  private readonly receiver = new ColumnsReceiver();

  constructor(
    private readonly file: ParquetTapeFile,
    private readonly skipped: ReadonlySet<string>,
    private readonly signal: Int32Array,
    private readonly port: MessagePort,
    private readonly decodeHere: boolean,
  ) {}

  /** Row group `g`, the groups before it taken: decoded here, or waited for from the thread. */
  take(g: number): DecodedColumns {
    const { signal } = this;
    if (this.decodeHere && !this.ready.has(g) && Atomics.compareExchange(signal, NEXT, g, g + 1) === g) {
      this.ready.set(g, this.decode(g));
    }
    for (;;) {
      const decoded = this.ready.get(g);
      if (decoded !== undefined) {
        this.ready.delete(g);
        countTaken(signal);
        if ('error' in decoded) throw decoded.error;
        return decoded;
      }
      const posted = Atomics.load(signal, POSTED);
      if (this.receive()) continue;
      // While the thread decodes group g, decode the next unclaimed one here, within the bound.
      const next = Atomics.load(signal, NEXT);
      if (
        this.decodeHere &&
        next < this.file.rowGroupCount &&
        next <= g + AHEAD &&
        Atomics.compareExchange(signal, NEXT, next, next + 1) === next
      ) {
        this.ready.set(next, this.decode(next));
        continue;
      }
      if (!awaitPost(signal, posted, STALL_MS)) {
        throw new Error(`the thread decoding the Parquet tape gave no row group in ${STALL_MS / 1000} s`);
      }
    }
  }

  /** Takes the thread's replies that have arrived; true when there was one. */
  private receive(): boolean {
    let any = false;
    for (let message = receiveMessageOnPort(this.port); message !== undefined; ) {
      const reply = message.message as DecodeReply;
      this.ready.set(reply.group, this.received(reply));
      any = true;
      message = receiveMessageOnPort(this.port);
    }
    return any;
  }

  private received(reply: DecodeReply): Decoded {
    if (!('error' in reply)) {
      const { valid, priceWords } = reply;
      return { columns: this.receiver.columns(reply.columns), valid, priceWords };
    }
    const { error, location } = reply;
    return { error: location !== undefined ? new InputError(error, location) : new Error(error) };
  }

  /** Group `g` decoded here; an error kept for its turn, as the thread's are. */
  private decode(g: number): Decoded {
    try {
      return this.file.decodeRowGroup(g, this.skipped);
    } catch (e) {
      return { error: e instanceof Error ? e : new Error(String(e)) };
    }
  }
}
