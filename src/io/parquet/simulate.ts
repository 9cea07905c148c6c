import { InputError } from '../../model/errors.js';
import type { EngineOptionsInput } from '../../model/options.js';
import { prepare, simulateParts, checkNetwork } from '../../simulate.js';
import { responseParts, type ResponseParts } from '../../report/response.js';
import { parseTapeHeader } from '../../model/tape.js';
import { StreamingReplay } from '../../engine/stream.js';
import { readTapeFile } from '../read-tape.js';
import { ParquetTapeFile } from './read.js';
import { rowGroupsAhead } from './decode-ahead.js';
import type { TapeHeaderOptions } from './header.js';
import { replayGroup, TableNumbers, type SwapWatcher } from '../group-replay.js';

/** What a simulation reads of a swap: everything but its transaction hash. */
const NOT_READ = ['transaction_hash'] as const;

/**
 * Simulates a request over a Parquet tape file. A tape written in time order (as every tape
 * copysim writes from a time-ordered source) streams a row group at a time, its groups decoded
 * by this thread and a thread of their own together (`rowGroupsAhead`), so memory holds a few
 * row groups and the replay's state, not the tape; any other is read whole and indexed. Gives
 * the same response as `simulate` over the same tape in JSON form. The transaction hashes,
 * which no part of a simulation reads, are not read from the file; a row group whose columns
 * all check out gives a followed wallet's swaps whole and the other swaps as the price ticks
 * the replay reads of them.
 *
 * @example
 * writeResponseParts(simulateParquetFileParts('tape.parquet', request), process.stdout.write);
 */
export function simulateParquetFileParts(
  path: string,
  request: unknown,
  options: EngineOptionsInput = {},
  onProgress?: (rowsRead: number, totalRows: number) => void,
  /**
   * Shown every swap as it goes by (the warnings' facts of a streamed tape), with its place in
   * the request's wallets (-1: not followed) when the replay has looked it up.
   */
  onSwap?: SwapWatcher,
  /** The header of a file another program wrote (see `readTapeFile`). */
  headerOptions: TapeHeaderOptions = {},
): ResponseParts {
  const file = new ParquetTapeFile(path, onProgress, headerOptions);
  try {
    if (!file.forms.timeOrdered) {
      file.close();
      const tape = readTapeFile(path, headerOptions);
      if (onSwap !== undefined) for (const swap of tape.swaps) onSwap(swap);
      // As the streamed replay below, the copier's points kept for a report.
      return simulateParts(tape, request, options, { copierPoints: true });
    }
    const { parsed, engineOptions } = prepare(request, options);
    const header = parseTapeHeader(file.header);
    checkNetwork(header.network, parsed.network);
    const stream = new StreamingReplay(header, parsed, engineOptions);
    const numbers = new TableNumbers();
    for (const group of rowGroupsAhead(file, NOT_READ)) replayGroup(stream, group, onSwap, file, numbers);
    const { result, tokens } = stream.finish();
    return responseParts(result, tokens);
  } catch (e) {
    if (!(e instanceof InputError) || e.location.source === path) throw e;
    // The swaps are pulled one by one, so a swap's error is about the row read last.
    throw new InputError(`${path}: row ${file.row}: ${e.message}`, { ...e.location, source: path });
  } finally {
    file.close();
  }
}
