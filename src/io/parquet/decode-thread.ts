/**
 * The thread that decodes a Parquet tape's row groups ahead of the replay (decode-ahead.ts):
 * it opens the file itself, decodes each row group in order (reading, decompressing, the
 * column checks), and posts it, staying at most {@link AHEAD} groups ahead of the thread that
 * takes them. Started from the compiled `dist/` file.
 */
import { workerData } from 'node:worker_threads';
import { InputError } from '../../model/errors.js';
import { ColumnsSender } from './column-wire.js';
import { AHEAD, POSTED, TAKEN, type DecodeReply, type DecodeStart } from './decode-ahead.js';
import { ParquetTapeFile } from './read.js';

/** Posts each row group's columns, or the error that stopped the decoding, then stops. */
function decodeAll(start: DecodeStart): void {
  const { port, signal } = start;
  const post = (reply: DecodeReply, transfer: ArrayBuffer[] = []): void => {
    port.postMessage(reply, transfer);
    // After the message: a reader that finds no message waits for this count to move.
    Atomics.add(signal, POSTED, 1);
    Atomics.notify(signal, POSTED);
  };
  let file: ParquetTapeFile | undefined;
  try {
    file = new ParquetTapeFile(start.path, undefined, start.headerOptions);
    const skipped = new Set<string>(start.without);
    const sender = new ColumnsSender(new Set(file.forms.numberFields));
    for (let g = start.from; g < file.rowGroupCount; g++) {
      const posted = g - start.from;
      for (let taken = Atomics.load(signal, TAKEN); posted - taken >= AHEAD; taken = Atomics.load(signal, TAKEN)) {
        Atomics.wait(signal, TAKEN, taken);
      }
      const { columns, valid } = file.decodeRowGroup(g, skipped);
      const wire = sender.wire(columns);
      post({ columns: wire.columns, valid }, wire.transfer);
    }
  } catch (e) {
    const error = e instanceof Error ? e : new Error(String(e));
    post({ error: error.message, ...(error instanceof InputError ? { location: error.location } : {}) });
  } finally {
    file?.close();
    port.close();
  }
}

decodeAll(workerData as DecodeStart);
