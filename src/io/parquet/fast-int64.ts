import type { CompressionCodec, Compressors } from 'hyparquet';
import { dataPagesV2 } from './data-pages.js';

/** A byte cursor over one page. */
interface Cursor {
  readonly bytes: Uint8Array;
  at: number;
}

/** An unsigned LEB128 varint as a double; NaN past 2^53 (more than a tape's times need). */
function varint(c: Cursor): number {
  let value = 0;
  let scale = 1;
  for (;;) {
    if (c.at >= c.bytes.length) return NaN;
    const byte = c.bytes[c.at++]!;
    value += (byte & 0x7f) * scale;
    if ((byte & 0x80) === 0) return value <= Number.MAX_SAFE_INTEGER ? value : NaN;
    scale *= 128;
  }
}

function zigzag(c: Cursor): number {
  const raw = varint(c);
  // raw / 2 rounded down, negated for odd raw: exact for raw up to 2^53.
  return raw % 2 === 0 ? raw / 2 : -(raw + 1) / 2;
}

/**
 * Decodes one DELTA_BINARY_PACKED INT64 page body into `out` from `start`, as doubles. Returns
 * false when a value or a delta leaves the safe integers or a miniblock is wider than 32 bits;
 * the caller then decodes with hyparquet's BigInt reader.
 */
function unpackPage(c: Cursor, count: number, out: Float64Array, start: number): boolean {
  const blockSize = varint(c);
  const miniblocks = varint(c);
  varint(c); // the page's value count, known from its header
  let value = zigzag(c);
  if (!(blockSize > 0 && miniblocks > 0 && Number.isSafeInteger(value))) return false;
  const perMiniblock = blockSize / miniblocks;
  let k = start;
  const end = start + count;
  if (k < end) out[k++] = value;
  while (k < end) {
    const minDelta = zigzag(c);
    if (!Number.isSafeInteger(minDelta)) return false;
    const widths = c.at;
    c.at += miniblocks;
    for (let m = 0; m < miniblocks && k < end; m++) {
      const width = c.bytes[widths + m]!;
      if (width > 32 || c.at + (perMiniblock * width) / 8 > c.bytes.length) return false;
      // Values are packed least significant bit first; read them a byte at a time.
      let bit = 0;
      for (let j = 0; j < perMiniblock && k < end; j++) {
        let residual = 0;
        for (let got = 0; got < width; ) {
          const byte = c.bytes[c.at + (bit >>> 3)]!;
          const offset = bit & 7;
          const take = Math.min(8 - offset, width - got);
          residual += ((byte >>> offset) & ((1 << take) - 1)) * 2 ** got;
          got += take;
          bit += take;
        }
        value += minDelta + residual;
        out[k++] = value;
      }
      c.at += (perMiniblock * width) / 8;
    }
    if (!Number.isSafeInteger(value)) return false;
  }
  return true;
}

/**
 * Decodes a required INT64 column chunk of DELTA_BINARY_PACKED data pages (v2), the form the tape
 * writer gives times, into doubles. hyparquet decodes INT64 through BigInt, which made the time
 * column the slowest of a tape to read. Returns null for any other layout or for values beyond
 * 2^53, which the caller then reads through hyparquet.
 */
export function readDeltaInt64(
  bytes: Uint8Array,
  codec: CompressionCodec,
  compressors: Compressors,
  rows: number,
): Float64Array | null {
  const pages = dataPagesV2(bytes, codec, compressors, rows, 'DELTA_BINARY_PACKED');
  if (pages === null) return null;
  const out = new Float64Array(rows);
  let row = 0;
  for (const page of pages) {
    if (page.nulls !== 0 || page.levels.length !== 0) return null;
    if (!unpackPage({ bytes: page.data, at: 0 }, page.values, out, row)) return null;
    row += page.values;
  }
  return out;
}
