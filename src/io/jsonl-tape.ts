import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { InputError } from '../model/errors.js';
import type { EngineOptionsInput } from '../model/options.js';
import type { SimulatorResponse } from '../model/response.js';
import { assembleResponse, type ResponseParts } from '../report/response.js';
import { simulateStreamParts } from '../simulate.js';
import { isFeedLogHeader } from '../live/log-reader.js';
import { simulateFeedLogParts } from '../live/replay-log.js';

/** Progress of reading a file: bytes read so far and the file's size. */
export type ByteProgress = (bytesRead: number, totalBytes: number) => void;

/** How a JSONL tape is read: progress reports and the bytes read at a time. */
export interface JsonlReading {
  readonly onProgress?: ByteProgress;
  readonly chunkBytes?: number;
  /** Called with each swap value as it is read, before it is checked (for `TapeFactsCollector`). */
  readonly onSwap?: (swap: unknown) => void;
}

const NEWLINE = 10;
const CHUNK_BYTES = 1 << 20;

/**
 * A JSONL tape file, read a MiB at a time and never held whole in memory. Line 1 is the
 * tape's header `{"network", "tokens", "native_prices"}`; every following line is one swap, in
 * the field forms of the JSON tape. Blank lines are skipped. A line that is not JSON is an
 * {@link InputError} naming its line number.
 *
 * @example
 * const file = new JsonlTapeFile('big.jsonl');
 * try {
 *   for (const swap of file.swaps()) use(swap, file.line);
 * } finally {
 *   file.close();
 * }
 */
export class JsonlTapeFile {
  /** The header object of line 1, parsed but not validated. */
  readonly header: unknown;
  /** Line number (1-based) of the value last given by {@link swaps}. */
  line = 1;
  private readonly fd: number;
  private readonly size: number;
  private buffer: Buffer;
  /** Bytes in `buffer` not yet handed out (a partial line at its start). */
  private held = 0;
  private bytesRead = 0;
  private nextLine = 1;
  /** Whole lines read with the header and not yet handed out (null: none). */
  private rest: string | null = null;

  /**
   * @param onProgress called after each chunk with the bytes read and the file's size
   * @param chunkBytes bytes read at a time (lines longer than this are still read whole)
   */
  constructor(
    readonly path: string,
    private readonly onProgress?: ByteProgress,
    chunkBytes = CHUNK_BYTES,
  ) {
    this.buffer = Buffer.allocUnsafe(chunkBytes);
    try {
      this.fd = openSync(path, 'r');
    } catch (e) {
      const reason = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message;
      throw new InputError(`tape file ${path}: ${reason}`, { source: path });
    }
    this.size = fstatSync(this.fd).size;
    try {
      this.header = this.readHeader();
    } catch (e) {
      this.close();
      throw e;
    }
  }

  /** The swap values of lines 2 on, parsed but not validated; {@link line} follows them. */
  *swaps(): Generator<unknown> {
    for (let text = this.rest ?? this.readChunk(); ; text = this.readChunk()) {
      const first = this.nextLine;
      const lineCount = countLines(text);
      this.nextLine += lineCount;
      if (text.length > 0) {
        const values = parseLines(text, lineCount);
        if (values !== null) {
          for (let j = 0; j < values.length; j++) {
            this.line = first + j;
            yield values[j];
          }
        } else {
          yield* this.parseOneByOne(text, first);
        }
      }
      if (this.done()) return;
    }
  }

  close(): void {
    closeSync(this.fd);
  }

  private readHeader(): unknown {
    const text = this.readChunk();
    const end = text.indexOf('\n');
    const headerText = end < 0 ? text : text.slice(0, end);
    this.rest = end < 0 ? null : text.slice(end + 1);
    this.nextLine = 2;
    if (headerText.trim() === '') {
      const empty = this.size === 0 ? 'the file is empty (0 bytes): ' : '';
      throw this.error(
        1,
        `${empty}expected the tape header {"network", "tokens", "native_prices"} on line 1, then one swap a line`,
      );
    }
    const header = parseLine(headerText, 1, this);
    if (typeof header === 'object' && header !== null && 'swaps' in header) {
      throw this.error(
        1,
        'a JSONL tape lists its swaps one a line after the header, not in it (is this a JSON tape? name it .json)',
      );
    }
    return header;
  }

  private done(): boolean {
    return this.bytesRead >= this.size && this.held === 0;
  }

  /** Reads on to the last newline of the next chunk; the text of those whole lines. */
  private readChunk(): string {
    for (;;) {
      if (this.held === this.buffer.length) {
        const bigger = Buffer.allocUnsafe(this.buffer.length * 2); // a line longer than a chunk
        this.buffer.copy(bigger, 0, 0, this.held);
        this.buffer = bigger;
      }
      const n = readSync(this.fd, this.buffer, this.held, this.buffer.length - this.held, null);
      this.bytesRead += n;
      this.onProgress?.(this.bytesRead, this.size);
      const filled = this.held + n;
      if (n === 0) {
        // End of file: what is left is the last line, without a newline.
        this.held = 0;
        return this.buffer.toString('utf8', 0, filled);
      }
      const end = this.buffer.lastIndexOf(NEWLINE, filled - 1);
      if (end < 0) {
        this.held = filled;
        continue;
      }
      // A newline byte never occurs inside a multi-byte UTF-8 character: safe to cut there.
      const text = this.buffer.toString('utf8', 0, end);
      this.buffer.copy(this.buffer, 0, end + 1, filled);
      this.held = filled - end - 1;
      return text;
    }
  }

  private *parseOneByOne(text: string, first: number): Generator<unknown> {
    const lines = text.split('\n');
    for (let j = 0; j < lines.length; j++) {
      if (lines[j]!.trim() === '') continue;
      this.line = first + j;
      yield parseLine(lines[j]!, this.line, this);
    }
  }

  /** An {@link InputError} naming this file and `line`. */
  error(line: number, message: string): InputError {
    return new InputError(`${this.path}: line ${line}: ${message}`, { source: this.path, line });
  }
}

function countLines(text: string): number {
  let count = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

/**
 * Parses a block of whole lines with one `JSON.parse`, as the items of an array: far quicker
 * than a parse per line. Null when that does not give exactly one value a line (a blank line,
 * a syntax error, two values on a line): the caller then parses line by line, for the errors.
 */
function parseLines(text: string, lineCount: number): unknown[] | null {
  try {
    const values = JSON.parse(`[${text.replaceAll('\n', ',')}]`) as unknown[];
    return values.length === lineCount ? values : null;
  } catch {
    return null;
  }
}

function parseLine(text: string, line: number, file: JsonlTapeFile): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw file.error(line, `not valid JSON: ${(e as Error).message}`);
  }
}

/**
 * Simulates a request over a JSONL tape file, streaming: the tape is never held in memory, so
 * its size is limited by the disk, not by memory. The swaps must be in non-decreasing time (a
 * swap earlier than the one before it is an error naming its line). Gives the same response as
 * `simulate` over the same tape in JSON form.
 *
 * @example
 * const response = simulateJsonlFile('big.jsonl', request, {}, { onProgress: (read, size) => show(read / size) });
 */
export function simulateJsonlFile(
  path: string,
  request: unknown,
  options: EngineOptionsInput = {},
  reading: JsonlReading = {},
): SimulatorResponse {
  return assembleResponse(simulateJsonlFileParts(path, request, options, reading));
}

/** {@link simulateJsonlFile}, giving the response in parts (for writing a large one piece by piece). */
export function simulateJsonlFileParts(
  path: string,
  request: unknown,
  options: EngineOptionsInput = {},
  reading: JsonlReading = {},
): ResponseParts {
  const file = new JsonlTapeFile(path, reading.onProgress, reading.chunkBytes);
  if (isFeedLogHeader(file.header)) {
    // A live run's log (copysim follow): its inputs in arrival order, read by the live run's rules.
    file.close();
    return simulateFeedLogParts(path, request, options, reading.onSwap);
  }
  try {
    const swaps = reading.onSwap === undefined ? file.swaps() : observed(file.swaps(), reading.onSwap);
    return simulateStreamParts(file.header, swaps, request, options);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    // The swaps are pulled one by one, so a swap's error is about the line read last.
    throw inTapeFile(e, path, e.location.swapIndex !== undefined ? file.line : e.location.line);
  } finally {
    file.close();
  }
}

/** `values`, each shown to `see` as it goes by. */
export function* observed<T>(values: Iterable<T>, see: (value: T) => void): Generator<T> {
  for (const value of values) {
    see(value);
    yield value;
  }
}

/** An {@link InputError} of a tape said again with its file and, when known, its line. */
export function inTapeFile(e: InputError, path: string, line: number | undefined): InputError {
  const where = line !== undefined ? `line ${line}: ` : '';
  return new InputError(`${path}: ${where}${e.message}`, {
    ...e.location,
    source: path,
    ...(line !== undefined ? { line } : {}),
  });
}
