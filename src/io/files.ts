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
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InputError(`${what} file ${path} is not valid JSON: ${(e as Error).message}`, { source: path });
  }
}

/** Reads and parses a JSON file. */
export function readJson(path: string, what: string): unknown {
  return parseJsonText(readText(path, what), path, what);
}
