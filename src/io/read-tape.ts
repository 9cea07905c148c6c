import { InputError } from '../model/errors.js';
import { indexTape, type IndexedTape } from '../engine/tape-index.js';
import { parseJsonText, readText } from './files.js';

/** Reads a tape file (JSON) and indexes it. Throws an {@link InputError} naming the problem. */
export function readTapeFile(path: string): IndexedTape {
  const value = parseJsonText(readText(path, 'tape'), path, 'tape');
  try {
    return indexTape(value as never);
  } catch (e) {
    if (e instanceof InputError) throw new InputError(`${path}: ${e.message}`, { ...e.location, source: path });
    throw e;
  }
}
