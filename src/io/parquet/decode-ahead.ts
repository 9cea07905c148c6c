import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { InputError, type InputLocation } from '../../model/errors.js';
import { builtScriptIfAny } from '../../built-script.js';
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
 * Places in the shared counters: replies posted by the decoding thread; row groups taken by the
 * reader; the next row group nobody has claimed (each thread claims a group before decoding it).
 */
export const POSTED = 0;
export const TAKEN = 1;
export const NEXT = 2;
/** How long the reader waits for a row group before it calls the decoding thread lost. */
const STALL_MS = 60_000;

/** What the decoding thread is given. */
export interface DecodeStart {
  readonly path: string;
  readonly headerOptions: TapeHeaderOptions;
  readonly without: readonly OptionalColumn[];
  /** The counters at {@link POSTED}, {@link TAKEN} and {@link NEXT}. */
  readonly signal: Int32Array;
  /** Where it posts a reply for each row group it claims. */
  readonly port: MessagePort;
}

/** A row group's columns and their check, or the error that ended the decoding. */
export type DecodeReply = { readonly group: number } & (
  | { readonly columns: WireColumns; readonly valid: boolean }
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
  const thread = file.rowGroupCount > 1 ? startThread(file, without) : null;
  if (thread === null) {
    yield* file.rowGroups(without);
    return;
  }
  try {
    const groups = new SharedDecoding(file, new Set(without), thread.signal, thread.port, decodeHere);
    yield* file.rowGroups(without, (g) => groups.take(g));
  } finally {
    thread.port.close();
    void thread.worker.terminate();
  }
}

/**
 * The decoding thread started on `file`, with the counters and the port they share; null
 * without the compiled thread script, or when the process cannot start a thread.
 */
function startThread(
  file: ParquetTapeFile,
  without: readonly OptionalColumn[],
): { readonly worker: Worker; readonly signal: Int32Array; readonly port: MessagePort } | null {
  const url = builtScriptIfAny('io/parquet/decode-thread.js');
  if (url === null) return null;
  const signal = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
  const { port1, port2 } = new MessageChannel();
  const start: DecodeStart = { path: file.path, headerOptions: file.headerOptions, without, signal, port: port2 };
  try {
    const worker = new Worker(url, { workerData: start, transferList: [port2] });
    worker.unref();
    return { worker, signal, port: port1 };
  } catch {
    // No thread to be had (a limit of the process).
    port1.close();
    return null;
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
        Atomics.add(signal, TAKEN, 1);
        Atomics.notify(signal, TAKEN);
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
      if (Atomics.wait(signal, POSTED, posted, STALL_MS) === 'timed-out') {
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
    if (!('error' in reply)) return { columns: this.receiver.columns(reply.columns), valid: reply.valid };
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
