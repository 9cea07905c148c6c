/**
 * The thread that decodes a Parquet tape's row groups beside the reader (decode-ahead.ts): it
 * opens the file itself, and claims and decodes (reads, decompresses, checks) the next row
 * group nobody has claimed whenever that group lies within {@link AHEAD} of the reader's, then
 * posts it. Started from the compiled `dist/` file.
 */
import { InputError } from '../../model/errors.js';
import { ColumnsSender } from './column-wire.js';
import { AHEAD, NEXT, type DecodeReply, type DecodeStart } from './decode-ahead.js';
import { onReadingStart, postCounted, TAKEN } from '../reading-thread.js';
import { ParquetTapeFile } from './read.js';
import { priceWordsOf } from './row-group.js';

/** The next row group this thread may decode, claimed; -1 when none is left. */
function claim(signal: Int32Array, groups: number): number {
  for (;;) {
    const taken = Atomics.load(signal, TAKEN);
    const next = Atomics.load(signal, NEXT);
    if (next >= groups) return -1;
    if (next > taken + AHEAD) {
      Atomics.wait(signal, TAKEN, taken);
      continue;
    }
    if (Atomics.compareExchange(signal, NEXT, next, next + 1) === next) return next;
  }
}

/** Posts each row group it claims, or the error that stopped its decoding, then stops. */
function decodeShare(start: DecodeStart): void {
  const { port, signal } = start;
  const post = (reply: DecodeReply, transfer?: ArrayBuffer[]): void => postCounted(start, reply, transfer);
  let file: ParquetTapeFile | undefined;
  let group = -1;
  try {
    file = new ParquetTapeFile(start.path, undefined, start.headerOptions);
    const skipped = new Set<string>(start.without);
    const numbers = new Set<string>(file.forms.numberFields);
    const sender = new ColumnsSender(numbers);
    for (group = claim(signal, file.rowGroupCount); group >= 0; group = claim(signal, file.rowGroupCount)) {
      const { columns, valid } = file.decodeRowGroup(group, skipped);
      // The replay's valuations read the prices' words: made here, beside it (a valid group only).
      const priceWords = valid ? priceWordsOf(columns, file.rowGroupRows(group), numbers) : null;
      const wire = sender.wire(columns);
      const transfer = priceWords === null ? wire.transfer : [...wire.transfer, priceWords.buffer as ArrayBuffer];
      post({ group, columns: wire.columns, valid, priceWords }, transfer);
    }
  } catch (e) {
    const error = e instanceof Error ? e : new Error(String(e));
    // The file failed to open (group -1): the reader meets the same error opening it, first.
    if (group >= 0)
      post({ group, error: error.message, ...(error instanceof InputError ? { location: error.location } : {}) });
  } finally {
    file?.close();
    port.close();
  }
}

onReadingStart(decodeShare);
