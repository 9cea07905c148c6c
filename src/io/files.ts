import { readFileSync } from 'node:fs';
import { InputError } from '../model/errors.js';

/** Reads a file as text; a missing or unreadable file is an {@link InputError} naming it. */
export function readText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message;
    throw new InputError(`${what} file ${path}: ${reason}`, { source: path });
  }
}

/** Parses JSON text; a syntax error is an {@link InputError} naming the file. */
export function parseJsonText(text: string, path: string, what: string): unknown {
  if (text.trim() === '') {
    throw new InputError(`${what} file ${path} is empty${text.length === 0 ? ' (0 bytes)' : ''}: expected ${EXPECTED[what] ?? 'JSON'}`, { source: path });
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InputError(`${what} file ${path} is not valid JSON: ${(e as Error).message}`, { source: path });
  }
}

/** What each kind of file holds, for the message about an empty one. */
const EXPECTED: Readonly<Record<string, string>> = {
  tape: 'a JSON object {"network", "tokens", "native_prices", "swaps"} (or a JSONL tape named .jsonl: a header line, then one swap a line)',
  request: 'the simulator request as a JSON object',
  options: 'engine options as a JSON object ({} for the defaults)',
};

/** Reads and parses a JSON file. */
export function readJson(path: string, what: string): unknown {
  return parseJsonText(readText(path, what), path, what);
}
