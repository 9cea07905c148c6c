/**
 * A one-off thread that reads, indexes and packs a queue job's tape, so that a worker's main
 * thread keeps renewing its jobs' locks while a large tape is read (a lock not renewed in time
 * would hand the job to another worker). Started by the tape store from the compiled file.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CopysimError } from '../model/errors.js';
import { readTapeFile } from '../io/read-tape.js';
import { packTape } from '../sweep/tape-transfer.js';

/** The loader's answer. */
export type TapeLoaderReply = { readonly packed: SharedArrayBuffer } | { readonly error: string; readonly input: boolean };

if (parentPort !== null) {
  let reply: TapeLoaderReply;
  try {
    reply = { packed: packTape(readTapeFile((workerData as { path: string }).path)) };
  } catch (e) {
    reply = { error: e instanceof Error ? e.message : String(e), input: e instanceof CopysimError };
  }
  parentPort.postMessage(reply);
}
