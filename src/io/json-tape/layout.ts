import { closeSync, fstatSync, openSync } from 'node:fs';
import { readRange } from '../files.js';

/**
 * Where a JSON tape file keeps its swaps: the `"swaps"` array as the top-level object's last
 * member, found without parsing the file. What lies around the array is the tape's header.
 */
export interface JsonTapeLayout {
  /** The file's size in bytes. */
  readonly size: number;
  /** The first byte inside the swaps array (after its `[`). */
  readonly bodyStart: number;
  /** The array's closing `]`: the swaps' text is `[bodyStart, bodyEnd)`. */
  readonly bodyEnd: number;
  /** The top-level object with an empty swaps array, parsed (not validated). */
  readonly header: Record<string, unknown>;
}

/** Bytes read at a time while looking for the swaps array. */
const HEAD_CHUNK = 1 << 16;
/** Bytes before the swaps array beyond which the file is read whole instead (a header that large is no tape's). */
const MOST_HEAD_BYTES = 64 << 20;
/** Bytes read from the end for the array's closing bracket. */
const TAIL_BYTES = 4096;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
/** The key looked for, as bytes. */
const SWAPS = Buffer.from('swaps');

/** JSON's whitespace: space, tab, line feed, carriage return. */
export function isJsonSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/**
 * The layout of a JSON tape whose `"swaps"` array is the top-level object's last member (as every
 * tape copysim writes, and most writers, have it), or null for any other file: another member
 * order, a file that is not such an object, a header that does not parse, a file that cannot be
 * opened. Null only means the file is read whole instead, where its errors are named.
 */
export function readJsonTapeLayout(path: string): JsonTapeLayout | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null; // missing or unreadable: the whole reading says so
  }
  try {
    const size = fstatSync(fd).size;
    const head = swapsArrayHead(fd, size);
    if (head === null) return null;
    const tail = lastMemberArrayTail(fd, size);
    if (tail === null || size - tail.length < head.length) return null;
    // The header as the file has it, its swaps array emptied: `{…, "swaps": [` + `]}`.
    const text = Buffer.concat([head, tail]).toString('utf8');
    let header: unknown;
    try {
      header = JSON.parse(text);
    } catch {
      return null;
    }
    if (typeof header !== 'object' || header === null || Array.isArray(header)) return null;
    return { size, bodyStart: head.length, bodyEnd: size - tail.length, header: header as Record<string, unknown> };
  } finally {
    closeSync(fd);
  }
}

/**
 * The file's bytes up to and with the `[` that opens the value of the top-level object's
 * `"swaps"` key, or null. Scans from the start a chunk at a time, minding strings and nesting,
 * so a `"swaps"` inside the tokens' map or a string is not taken for it; gives up after
 * {@link MOST_HEAD_BYTES}.
 */
function swapsArrayHead(fd: number, size: number): Buffer | null {
  let depth = 0;
  let inString = false;
  let escaped = false;
  /** In a string at depth 1: how much of `swaps` it has matched so far (-1: no match). */
  let matched = -1;
  let keyIsSwaps = false;
  let afterColon = false;
  const end = Math.min(size, MOST_HEAD_BYTES);
  const chunks: Buffer[] = [];
  for (let at = 0; at < end; ) {
    const chunk = readRange(fd, at, Math.min(HEAD_CHUNK, end - at));
    if (chunk.length === 0) return null;
    chunks.push(chunk);
    for (let k = 0; k < chunk.length; k++) {
      const byte = chunk[k]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) {
          inString = false;
          keyIsSwaps = matched === SWAPS.length;
          continue;
        }
        // An escape never matches: `"swap\u0073"` is left to the whole reading.
        matched = matched >= 0 && matched < SWAPS.length && byte === SWAPS[matched] ? matched + 1 : -1;
        continue;
      }
      if (isJsonSpace(byte)) continue;
      if (afterColon) {
        // The value of a key at depth 1: the swaps array is what is looked for.
        afterColon = false;
        if (keyIsSwaps) return byte === OPEN_BRACKET ? Buffer.concat(chunks).subarray(0, at + k + 1) : null;
      }
      if (byte === QUOTE) {
        inString = true;
        matched = depth === 1 ? 0 : -1;
      } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
        if (depth === 0 && byte !== OPEN_BRACE) return null;
        depth++;
      } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        depth--;
        if (depth <= 0) return null;
      } else if (byte === COLON && depth === 1) {
        afterColon = true;
      } else if (depth === 0) {
        return null;
      }
    }
    at += chunk.length;
  }
  return null;
}

/** The file's bytes from the `]` before its final `}` (whitespace around them allowed), or null. */
function lastMemberArrayTail(fd: number, size: number): Buffer | null {
  const from = Math.max(0, size - TAIL_BYTES);
  const tail = readRange(fd, from, size - from);
  let i = tail.length - 1;
  while (i >= 0 && isJsonSpace(tail[i])) i--;
  if (tail[i] !== CLOSE_BRACE) return null;
  i--;
  while (i >= 0 && isJsonSpace(tail[i])) i--;
  return tail[i] === CLOSE_BRACKET ? tail.subarray(i) : null;
}
