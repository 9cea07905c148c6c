import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { InputError, type InputLocation } from '../../model/errors.js';
import { builtScriptIfAny } from '../../built-script.js';
import { ColumnsReceiver, type WireColumns } from './column-wire.js';
import type { TapeHeaderOptions } from './header.js';
import type { OptionalColumn } from './format.js';
import type { ParquetTapeFile } from './read.js';
import { decodedRowGroup, type DecodedRowGroup } from './row-group.js';

/** Row groups the decoding thread may hold decoded and not yet taken: memory for as many. */
export const AHEAD = 2;
/** Places in the shared counters: row groups posted by the decoding thread, and taken from it. */
export const POSTED = 0;
export const TAKEN = 1;
/** How long the reader waits for a row group before it calls the decoding thread lost. */
const STALL_MS = 60_000;

/** What the decoding thread is given. */
export interface DecodeStart {
  readonly path: string;
  readonly headerOptions: TapeHeaderOptions;
  readonly without: readonly OptionalColumn[];
  /** The first row group it decodes. */
  readonly from: number;
  /** The counters at {@link POSTED} and {@link TAKEN}. */
  readonly signal: Int32Array;
  /** Where it posts its replies, one a row group, in order. */
  readonly port: MessagePort;
}

/** A row group's columns and their check, or the error that ended the decoding. */
export type DecodeReply =
  | { readonly columns: WireColumns; readonly valid: boolean }
  | { readonly error: string; readonly location?: InputLocation };

/**
 * The row groups of `file`, as {@link ParquetTapeFile.rowGroups} gives them, decoded on a
 * thread of their own while this one replays the groups before: reading, decompressing and
 * checking a group's columns is about a seventh of a simulation from Parquet, and the second
 * core is otherwise idle. The thread keeps at most {@link AHEAD} groups decoded ahead, so a
 * tape of any size still streams. A file of one row group (nothing to overlap), a build without
 * the compiled thread script (the TypeScript sources run unbuilt), or a process that cannot start
 * a thread, is decoded here. An error in a group is thrown when that group's turn comes, with
 * the message the decoding here gives.
 */
export function* rowGroupsAhead(file: ParquetTapeFile, without: readonly OptionalColumn[]): Generator<DecodedRowGroup> {
  const url = file.rowGroupCount > 1 ? builtScriptIfAny('io/parquet/decode-thread.js') : null;
  if (url === null) {
    yield* file.rowGroups(without);
    return;
  }
  const signal = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
  const { port1, port2 } = new MessageChannel();
  const start: DecodeStart = {
    path: file.path,
    headerOptions: file.headerOptions,
    without,
    from: 1,
    signal,
    port: port2,
  };
  let worker: Worker;
  try {
    worker = new Worker(url, { workerData: start, transferList: [port2] });
  } catch {
    // No thread to be had (a limit of the process): the same groups, decoded here.
    port1.close();
    yield* file.rowGroups(without);
    return;
  }
  worker.unref();
  try {
    const numbers = new Set<string>(file.forms.numberFields);
    const skipped = new Set<string>(without);
    // The first group is decoded here, while the thread starts and decodes the second.
    const head = file.decodeRowGroup(0, skipped);
    yield decodedRowGroup(head.columns, 0, head.rows, numbers, skipped, head.valid);
    let first = head.rows;
    file.progress(first);
    const receiver = new ColumnsReceiver();
    for (let g = 1; g < file.rowGroupCount; g++) {
      const reply = receive(port1, signal);
      if ('error' in reply) {
        if (reply.location !== undefined) throw new InputError(reply.error, reply.location);
        throw new Error(`${file.path}: ${reply.error}`);
      }
      Atomics.add(signal, TAKEN, 1);
      Atomics.notify(signal, TAKEN);
      const rows = file.rowGroupRows(g);
      yield decodedRowGroup(receiver.columns(reply.columns), first, rows, numbers, skipped, reply.valid);
      first += rows;
      file.progress(first);
    }
  } finally {
    port1.close();
    void worker.terminate();
  }
}

/** The decoding thread's next reply, waited for. */
function receive(port: MessagePort, signal: Int32Array): DecodeReply {
  for (;;) {
    const posted = Atomics.load(signal, POSTED);
    const received = receiveMessageOnPort(port);
    if (received !== undefined) return received.message as DecodeReply;
    if (Atomics.wait(signal, POSTED, posted, STALL_MS) === 'timed-out') {
      throw new Error(`the thread decoding the Parquet tape gave no row group in ${STALL_MS / 1000} s`);
    }
  }
}
