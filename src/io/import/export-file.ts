import { closeSync, openSync, readSync } from 'node:fs';
import { InputError } from '../../model/errors.js';
import { decodeText, readText } from '../files.js';

/** Bytes read at a time: a piece's text stays a small string of the young generation. */
const PIECE_BYTES = 1 << 20;

/**
 * An export file's text in pieces, each ending just after a line break (the last one need not):
 * joined, they are {@link readText}'s text. The file goes through one buffer of
 * {@link PIECE_BYTES} (larger only for a longer line), so reading it touches no memory of its
 * size: on a 27 MB CSV, a whole-file buffer and its text cost about 190 ms of page faults before
 * a cell is read, the pieces 10 ms. A line break never falls inside a UTF-8 sequence, so each
 * piece decodes as the whole file would. The first byte of a file that cannot be read throws
 * {@link readText}'s error, naming what it is. `pieceBytes` is for tests.
 */
export function* exportPieces(
  path: string,
  what: string,
  pieceBytes = PIECE_BYTES,
): Generator<string, void, undefined> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    readText(path, what);
    return;
  }
  try {
    let buffer = Buffer.allocUnsafeSlow(pieceBytes);
    let filled = 0;
    let ended = false;
    while (!ended || filled > 0) {
      while (!ended && filled < buffer.length) {
        const n = readBytes(fd, buffer, filled, path, what);
        if (n === 0) ended = true;
        filled += n;
      }
      const lastBreak = filled === 0 ? -1 : buffer.lastIndexOf(10, filled - 1);
      if (lastBreak < 0 && !ended) {
        // One line longer than the buffer: a larger one holds it.
        const larger = Buffer.allocUnsafeSlow(buffer.length * 2);
        buffer.copy(larger, 0, 0, filled);
        buffer = larger;
        continue;
      }
      const end = ended && lastBreak < filled - 1 ? filled : lastBreak + 1;
      if (end === 0) break;
      yield decodeText(buffer.subarray(0, end));
      buffer.copy(buffer, 0, end, filled);
      filled -= end;
    }
  } finally {
    closeSync(fd);
  }
}

function readBytes(fd: number, buffer: Buffer, at: number, path: string, what: string): number {
  try {
    return readSync(fd, buffer, at, buffer.length - at, null);
  } catch (e) {
    throw new InputError(`${what} file ${path}: ${(e as Error).message}`, { source: path });
  }
}
