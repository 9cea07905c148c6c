import { InputError } from '../../model/errors.js';
import type { EngineOptionsInput } from '../../model/options.js';
import { simulateParts, simulateStreamParts } from '../../simulate.js';
import type { ResponseParts } from '../../report/response.js';
import { readTapeFile } from '../read-tape.js';
import { observed } from '../jsonl-tape.js';
import { ParquetTapeFile } from './read.js';

/**
 * Simulates a request over a Parquet tape file. A tape written in time order (as every tape
 * copysim writes from a time-ordered source) streams a row group at a time, so memory holds one
 * row group and the replay's state, not the tape; any other is read whole and indexed. Gives
 * the same response as `simulate` over the same tape in JSON form.
 *
 * @example
 * writeResponseParts(simulateParquetFileParts('tape.parquet', request), process.stdout.write);
 */
export function simulateParquetFileParts(
  path: string,
  request: unknown,
  options: EngineOptionsInput = {},
  onProgress?: (rowsRead: number, totalRows: number) => void,
  /** Shown every swap as it goes by (the warnings' facts of a streamed tape). */
  onSwap?: (swap: unknown) => void,
): ResponseParts {
  const file = new ParquetTapeFile(path, onProgress);
  try {
    if (!file.forms.timeOrdered) {
      file.close();
      const tape = readTapeFile(path);
      if (onSwap !== undefined) for (const swap of tape.swaps) onSwap(swap);
      return simulateParts(tape, request, options);
    }
    const swaps = file.swaps();
    return simulateStreamParts(file.header, onSwap === undefined ? swaps : observed(swaps, onSwap), request, options);
  } catch (e) {
    if (!(e instanceof InputError) || e.location.source === path) throw e;
    // The swaps are pulled one by one, so a swap's error is about the row read last.
    throw new InputError(`${path}: row ${file.row}: ${e.message}`, { ...e.location, source: path });
  } finally {
    file.close();
  }
}
