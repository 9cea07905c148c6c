import { isAscii } from 'node:buffer';
import type { CompressionCodec, Compressors } from 'hyparquet';
import { deltaBinaryUnpack } from 'hyparquet/src/delta.js';
import { readRleBitPackedHybrid } from 'hyparquet/src/encoding.js';
import { dataPagesV2 } from './data-pages.js';

/**
 * A decoded string column chunk kept as one text and each value's bounds: a value becomes a
 * string only when asked for. Made eagerly, a row group's million decimal strings outlived
 * several young-generation collections, each copying them, which cost about as much as decoding.
 */
export class LazyStrings {
  constructor(
    private readonly text: string,
    /** Start of each row's value in `text`; -1 for a null. */
    private readonly starts: Int32Array,
    private readonly ends: Int32Array,
  ) {}

  get length(): number {
    return this.starts.length;
  }

  at(i: number): string | undefined {
    const start = this.starts[i]!;
    return start < 0 ? undefined : this.text.slice(start, this.ends[i]);
  }

  /** What it is made of, to send it to another thread (column-wire.ts). */
  parts(): { readonly text: string; readonly starts: Int32Array; readonly ends: Int32Array } {
    return { text: this.text, starts: this.starts, ends: this.ends };
  }

  /** Whether `test` holds for every value, tested in place (no string made); a null passes when `nullable`. */
  every(test: (text: string, start: number, end: number) => boolean, nullable: boolean): boolean {
    const { text, starts, ends } = this;
    for (let i = 0; i < starts.length; i++) {
      const start = starts[i]!;
      if (start < 0 ? !nullable : !test(text, start, ends[i]!)) return false;
    }
    return true;
  }
}

/**
 * Decodes a string column chunk of DELTA_LENGTH_BYTE_ARRAY data pages (v2), the form the tape
 * writer gives hashes and decimals, without an object per value: the pages' bytes become one
 * string and a value a slice of it, made when read ({@link LazyStrings}). hyparquet makes a
 * Uint8Array view per value first, and on a million-row group that garbage was most of the
 * reading time. Returns null for any other layout (another writer's file) or for text that is
 * not ASCII (its byte bounds are not string bounds), which the caller then reads through hyparquet.
 */
export function readDeltaLengthStrings(
  bytes: Uint8Array,
  codec: CompressionCodec,
  compressors: Compressors,
  rows: number,
  optional: boolean,
): LazyStrings | null {
  const pages = dataPagesV2(bytes, codec, compressors, rows, 'DELTA_LENGTH_BYTE_ARRAY');
  if (pages === null) return null;
  const starts = new Int32Array(rows);
  const ends = new Int32Array(rows);
  const texts: string[] = [];
  let base = 0;
  let row = 0;
  for (const page of pages) {
    if (!optional && page.nulls > 0) return null;
    let defined: number[] | null = null;
    if (optional) {
      defined = new Array<number>(page.values);
      const levels = {
        view: new DataView(page.levels.buffer, page.levels.byteOffset, page.levels.byteLength),
        offset: 0,
      };
      readRleBitPackedHybrid(levels, 1, defined, page.levels.byteLength);
    }
    const { data } = page;
    const lengths = new Int32Array(page.values - page.nulls);
    const dataReader = { view: new DataView(data.buffer, data.byteOffset, data.byteLength), offset: 0 };
    deltaBinaryUnpack(dataReader, lengths.length, lengths);
    const body = data.subarray(dataReader.offset);
    if (!isAscii(body)) return null;
    // Node's latin1 slice is a copy; the WHATWG 'latin1' decoder (windows-1252) is far slower.
    texts.push(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('latin1'));
    let at = base;
    let k = 0;
    for (let i = 0; i < page.values; i++, row++) {
      if (defined !== null && defined[i] === 0) {
        starts[row] = -1;
        continue;
      }
      starts[row] = at;
      at += lengths[k++]!;
      ends[row] = at;
    }
    if (at - base !== body.length) return null;
    base = at;
  }
  return new LazyStrings(texts.join(''), starts, ends);
}
