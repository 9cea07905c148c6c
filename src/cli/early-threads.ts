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
 * Whether `copysim simulate` tries to stream `tape` as a JSON tape, a second thread parsing its
 * swaps: a tape neither JSONL nor Parquet, unless `--html` (`html`) needs it in memory.
 */
export function streamsJsonTape(tape: string, html: string | undefined): boolean {
  return html === undefined && !isJsonlPath(tape) && !isParquetPath(tape);
}

/**
 * For `copysim simulate` of a JSON tape that streams ({@link streamsJsonTape}): the thread that
 * parses its swaps while the replay runs. The replay then waits about 0.2 s less for the first
 * block. A Parquet tape's decoding thread is not needed before the replay's second row group,
 * and a JSONL tape streams on one thread. Arguments it cannot read start nothing: the command
 * names the error.
 */
export function startSimulateThreads(args: readonly string[]): void {
  let values: Record<string, string | boolean | undefined>;
  try {
    const options = { tape: { type: 'string' }, html: { type: 'string' } } as const;
    ({ values } = parseArgs({ args: [...args], options, strict: false, allowPositionals: true }));
  } catch {
    return;
  }
  const { tape, html } = values;
  if (typeof tape === 'string' && streamsJsonTape(tape, typeof html === 'string' ? html : undefined))
    prestartReadingThread('io/json-tape/block-thread.js');
}
