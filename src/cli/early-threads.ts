/**
 * The threads a command will read its tape with, started before the command's modules load: a
 * thread's start (node's, then its own modules) then overlaps the command's. Only modules
 * without schemas here, as this runs before zod loads.
 */
import { parseArgs } from 'node:util';
import { prestartReadingThread } from '../io/reading-thread.js';
import { isParquetPath } from '../io/parquet/format.js';
import { isJsonlPath } from '../io/tape-names.js';

/**
 * For `copysim simulate` of a JSON tape: the thread that parses its swaps while the replay runs
 * (unless `--html`, which reads the tape whole). The replay then waits about 0.2 s less for the
 * first block. A Parquet tape's decoding thread is not needed before the replay's second row
 * group, and a JSONL tape streams on one thread. Arguments it cannot read start nothing: the
 * command names the error.
 */
export function startSimulateThreads(args: readonly string[]): void {
  let tape: string | undefined;
  let html: string | undefined;
  try {
    const { values } = parseArgs({
      args: [...args],
      options: { tape: { type: 'string' }, html: { type: 'string' } },
      strict: false,
      allowPositionals: true,
    });
    tape = typeof values.tape === 'string' ? values.tape : undefined;
    html = typeof values.html === 'string' ? values.html : undefined;
  } catch {
    return;
  }
  if (tape === undefined || html !== undefined || isJsonlPath(tape) || isParquetPath(tape)) return;
  prestartReadingThread('io/json-tape/block-thread.js');
}
