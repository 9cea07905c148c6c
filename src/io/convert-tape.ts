import { closeSync, openSync, writeSync } from 'node:fs';
import { InputError } from '../model/errors.js';
import { parseSwap, parseTapeHeader, type Swap, type TapeHeader, type TapeInput } from '../model/tape.js';
import { isValidSwap, validateTape } from '../engine/tape-check.js';
import { parseJsonText, readText } from './files.js';
import { inTapeFile, JsonlTapeFile } from './jsonl-tape.js';
import { isParquetPath } from './parquet/format.js';
import { ParquetTapeFile } from './parquet/read.js';
import { ParquetTapeWriter } from './parquet/write.js';
import { inParquetRow, isJsonlPath, refuseHeaderOptions } from './read-tape.js';
import type { TapeHeaderOptions } from './parquet/header.js';
import { isFeedLogHeader } from '../live/log-reader.js';
import { feedLogTape } from '../live/replay-log.js';

/** Where swaps go, one at a time, in tape order. */
export interface TapeSink {
  add(swap: Swap | TapeInput['swaps'][number]): void;
  finish(): void;
}

/** Writes text to a file in large chunks. */
class ChunkedFile {
  private parts: string[] = [];
  private size = 0;
  private readonly fd: number;
  constructor(path: string) {
    this.fd = openSync(path, 'w');
  }
  write(text: string): void {
    this.parts.push(text);
    this.size += text.length;
    if (this.size > 1 << 20) this.flush();
  }
  close(): void {
    this.flush();
    closeSync(this.fd);
  }
  private flush(): void {
    writeSync(this.fd, this.parts.join(''));
    this.parts = [];
    this.size = 0;
  }
}

/** The header's JSON text without the closing brace. */
function headerText(header: Omit<TapeInput, 'swaps'>): string {
  const { network, tokens, native_prices } = header;
  return JSON.stringify({ network, tokens: tokens ?? {}, native_prices: native_prices ?? [] });
}

/** A JSON tape written as it comes, one swap a line (the form `copysim import` writes). */
class JsonTapeSink implements TapeSink {
  private readonly file: ChunkedFile;
  private first = true;
  constructor(path: string, header: Omit<TapeInput, 'swaps'>) {
    this.file = new ChunkedFile(path);
    this.file.write(`${headerText(header).slice(0, -1)},"swaps":[`);
  }
  add(swap: TapeInput['swaps'][number]): void {
    this.file.write(`${this.first ? '\n' : ',\n'}${JSON.stringify(swap)}`);
    this.first = false;
  }
  finish(): void {
    this.file.write(`\n]}\n`);
    this.file.close();
  }
}

/** A JSONL tape: the header line, then one swap a line. */
class JsonlTapeSink implements TapeSink {
  private readonly file: ChunkedFile;
  constructor(path: string, header: Omit<TapeInput, 'swaps'>) {
    this.file = new ChunkedFile(path);
    this.file.write(`${headerText(header)}\n`);
  }
  add(swap: TapeInput['swaps'][number]): void {
    this.file.write(`${JSON.stringify(swap)}\n`);
  }
  finish(): void {
    this.file.close();
  }
}

/** A sink writing the tape form that `path`'s extension names (.parquet, .jsonl, else JSON). */
export function tapeSink(path: string, header: Omit<TapeInput, 'swaps'>): TapeSink {
  if (isParquetPath(path)) return new ParquetTapeWriter(path, header);
  if (isJsonlPath(path)) return new JsonlTapeSink(path, header);
  return new JsonTapeSink(path, header);
}

/**
 * Writes a tape in the form its file name says (`.parquet`, `.jsonl`, else JSON).
 *
 * @example
 * writeTape('tape.parquet', { network: 'sol', swaps: [...] });
 */
export function writeTape(path: string, tape: TapeInput): void {
  const { swaps, ...header } = tape;
  const sink = tapeSink(path, header);
  for (const swap of swaps) sink.add(swap);
  sink.finish();
}

/** What {@link convertTapeFile} did. */
export interface Conversion {
  readonly swaps: number;
}

/**
 * Converts a tape between JSON, JSONL and Parquet (by the file names' extensions), swap by
 * swap: a JSONL or Parquet source streams, so a tape larger than memory converts. Every swap is
 * validated; the values keep their form (a decimal string stays that string, a JSON number a
 * number), so converting there and back gives the same swaps. `options` give the header of a
 * Parquet input another program wrote (see `readTapeFile`); the output then carries it.
 *
 * @example
 * convertTapeFile('tape.json', 'tape.parquet'); // { swaps: 1000000 }
 * convertTapeFile('duckdb-export.parquet', 'tape.parquet', { network: 'sol' });
 */
export function convertTapeFile(input: string, output: string, options: TapeHeaderOptions = {}): Conversion {
  if (input === output)
    throw new InputError(`convert: the input and output are the same file (${input})`, { source: input });
  let count = 0;
  const pipe = (header: TapeHeader, swaps: Iterable<Swap>): Conversion => {
    const sink = tapeSink(output, header);
    for (const swap of swaps) {
      sink.add(swap);
      count++;
    }
    sink.finish();
    return { swaps: count };
  };
  if (isParquetPath(input)) {
    const file = new ParquetTapeFile(input, undefined, options);
    try {
      return pipe(
        file.header,
        (function* () {
          let i = 0;
          for (const value of file.swaps()) {
            yield isValidSwap(value) ? value : inParquetRow(file, () => parseSwap(value, i));
            i++;
          }
        })(),
      );
    } finally {
      file.close();
    }
  }
  refuseHeaderOptions(input, options);
  if (isJsonlPath(input)) {
    const file = new JsonlTapeFile(input);
    try {
      if (isFeedLogHeader(file.header)) {
        // A live run's log: read whole, as its inputs come in arrival order.
        const { swaps, ...header } = feedLogTape(input);
        return pipe(parseTapeHeader(header), swaps as Swap[]);
      }
      const header = withLine(input, 1, () => parseTapeHeader(file.header));
      return pipe(
        header,
        (function* () {
          let i = 0;
          for (const value of file.swaps()) {
            yield isValidSwap(value) ? value : withLine(input, file.line, () => parseSwap(value, i, file.line));
            i++;
          }
        })(),
      );
    } finally {
      file.close();
    }
  }
  const value = parseJsonText(readText(input, 'tape'), input, 'tape');
  const tape = withLine(input, undefined, () => validateTape(value));
  const { swaps, ...header } = tape;
  return pipe(header, swaps);
}

function withLine<T>(path: string, line: number | undefined, read: () => T): T {
  try {
    return read();
  } catch (e) {
    throw e instanceof InputError ? inTapeFile(e, path, line) : e;
  }
}
