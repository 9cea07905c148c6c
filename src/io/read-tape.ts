import { InputError } from '../model/errors.js';
import { parseSwap, parseTapeHeader, type Swap } from '../model/tape.js';
import { indexTape, type IndexedTape } from '../engine/tape-index.js';
import { isValidSwap } from '../engine/tape-check.js';
import { parseJsonText, readText } from './files.js';
import { inTapeFile, JsonlTapeFile } from './jsonl-tape.js';
import { isParquetPath } from './parquet/format.js';
import { isJsonlPath } from './tape-names.js';
import { ParquetTapeFile } from './parquet/read.js';
import { hasHeaderOptions, type TapeHeaderOptions } from './parquet/header.js';
import { isFeedLogHeader } from '../live/log-reader.js';
import { feedLogTape } from '../live/replay-log.js';

export { isJsonlPath } from './tape-names.js';

/**
 * Reads a tape file into memory and indexes it: one JSON file, JSONL (a name ending in
 * `.jsonl`: the header line, then one swap a line, in any time order), or the columnar form (a
 * name ending in `.parquet`, see docs/columnar-tape.md). Throws an {@link InputError} naming
 * the problem (swap index and field; the line in a JSONL file, the row in a Parquet file).
 * `options` give the header of a Parquet file another program wrote (its network, tokens and
 * native prices); a JSON or JSONL tape carries its own, and is refused with them.
 *
 * @example
 * const tape = readTapeFile('tape.json');
 * simulate(tape, requestA);
 * simulate(tape, requestB);
 * readTapeFile('duckdb-export.parquet', { network: 'sol' });
 */
export function readTapeFile(path: string, options: TapeHeaderOptions = {}): IndexedTape {
  if (isParquetPath(path)) return readParquetTapeFile(path, options);
  refuseHeaderOptions(path, options);
  if (isJsonlPath(path)) return readJsonlTapeFile(path);
  const value = parseJsonText(readText(path, 'tape'), path, 'tape');
  try {
    return indexTape(value as never);
  } catch (e) {
    throw e instanceof InputError ? inTapeFile(e, path, undefined) : e;
  }
}

function readJsonlTapeFile(path: string): IndexedTape {
  const file = new JsonlTapeFile(path);
  try {
    if (isFeedLogHeader(file.header)) return indexTape(feedLogTape(path));
    const header = withFile(path, () => parseTapeHeader(file.header));
    const swaps: Swap[] = [];
    for (const value of file.swaps()) {
      swaps.push(isValidSwap(value) ? value : withFile(path, () => parseSwap(value, swaps.length, file.line)));
    }
    return indexTape({ ...header, swaps });
  } finally {
    file.close();
  }
}

/**
 * Throws when header options come with a tape that is not Parquet: a JSON or JSONL tape's header
 * is its first member or line, and is edited there.
 */
export function refuseHeaderOptions(path: string, options: TapeHeaderOptions): void {
  if (!hasHeaderOptions(options)) return;
  throw new InputError(
    `${path}: a network, tokens or native prices given beside the tape are for a Parquet file without` +
      ` copysim's header; a JSON or JSONL tape holds its own header ("network", "tokens", "native_prices")`,
    { source: path },
  );
}

function readParquetTapeFile(path: string, options: TapeHeaderOptions): IndexedTape {
  const file = new ParquetTapeFile(path, undefined, options);
  try {
    const swaps: Swap[] = [];
    for (const value of file.swaps()) {
      swaps.push(isValidSwap(value) ? value : inParquetRow(file, () => parseSwap(value, swaps.length)));
    }
    return indexTape({ ...file.header, swaps });
  } finally {
    file.close();
  }
}

/** Runs `read`; an {@link InputError} it throws is said again with the Parquet file and row. */
export function inParquetRow<T>(file: ParquetTapeFile, read: () => T): T {
  try {
    return read();
  } catch (e) {
    throw e instanceof InputError
      ? new InputError(`${file.path}: row ${file.row}: ${e.message}`, { ...e.location, source: file.path })
      : e;
  }
}

/** Runs `read`; an {@link InputError} it throws is said again with the file and line. */
function withFile<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    throw e instanceof InputError ? inTapeFile(e, path, e.location.line) : e;
  }
}
