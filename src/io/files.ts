import { isAscii } from 'node:buffer';
import { readFileSync, readSync } from 'node:fs';
import { InputError } from '../model/errors.js';

/**
 * Reads a file as text; a missing or unreadable file (or one too large for a string) is an
 * {@link InputError} naming it. The text is `readFileSync(path, 'utf8')`'s (a byte-order mark
 * kept, bad bytes replaced alike). Bytes that are all ASCII, as tapes and exports almost always
 * are, are the same text in Latin-1, which is a copy rather than a decoding: reading the 337 MB
 * tape of a million swaps takes about 3 s instead of 5 to 7 on this project's benchmark machine.
 */
export function readText(path: string, what: string): string {
  try {
    return decodeText(readFileSync(path));
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message;
    throw new InputError(`${what} file ${path}: ${reason}`, { source: path });
  }
}

/** Bytes as text, as `toString('utf8')` decodes them: Latin-1 (a copy) when they are all ASCII. */
export function decodeText(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/** Parses JSON text; a syntax error is an {@link InputError} naming the file. */
export function parseJsonText(text: string, path: string, what: string): unknown {
  if (text.trim() === '') {
    throw new InputError(
      `${what} file ${path} is empty${text.length === 0 ? ' (0 bytes)' : ''}: expected ${EXPECTED[what] ?? 'JSON'}`,
      { source: path },
    );
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InputError(`${what} file ${path} is not valid JSON: ${(e as Error).message}`, { source: path });
  }
}

/** What each kind of file holds, for the message about an empty one. */
const EXPECTED: Readonly<Record<string, string>> = {
  tape:
    'a JSON object {"network", "tokens", "native_prices", "swaps"}' +
    ' (or a JSONL tape named .jsonl: a header line, then one swap a line)',
  request: 'the simulator request as a JSON object',
  options: 'engine options as a JSON object ({} for the defaults)',
};

/** Reads and parses a JSON file. */
export function readJson(path: string, what: string): unknown {
  return parseJsonText(readText(path, what), path, what);
}

/** `length` bytes of an open file from `position` (fewer when the file ends first). */
export function readRange(fd: number, position: number, length: number): Buffer {
  const bytes = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, bytes, done, length - done, position + done);
    if (n === 0) break;
    done += n;
  }
  return done === length ? bytes : bytes.subarray(0, done);
}
