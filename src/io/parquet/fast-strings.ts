import { isAscii } from 'node:buffer';
import type { CompressionCodec, Compressors } from 'hyparquet';
import { parquetHeader } from 'hyparquet/src/column.js';
import { decompressPage } from 'hyparquet/src/datapage.js';
import { deltaBinaryUnpack } from 'hyparquet/src/delta.js';
import { readRleBitPackedHybrid } from 'hyparquet/src/encoding.js';

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
  const reader = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 };
  const starts = new Int32Array(rows);
  const ends = new Int32Array(rows);
  const texts: string[] = [];
  let base = 0;
  let row = 0;
  while (row < rows && reader.offset < bytes.length) {
    const header = parquetHeader(reader);
    const v2 = header.data_page_header_v2;
    if (header.type !== 'DATA_PAGE_V2' || v2 === undefined || v2.encoding !== 'DELTA_LENGTH_BYTE_ARRAY' || v2.repetition_levels_byte_length !== 0) {
      return null;
    }
    if (row + v2.num_values > rows || (!optional && v2.num_nulls > 0)) return null;
    const page = bytes.subarray(reader.offset, reader.offset + header.compressed_page_size);
    reader.offset += header.compressed_page_size;
    let defined: number[] | null = null;
    if (optional) {
      defined = new Array<number>(v2.num_values);
      const levels = { view: new DataView(page.buffer, page.byteOffset, page.byteLength), offset: 0 };
      readRleBitPackedHybrid(levels, 1, defined, v2.definition_levels_byte_length);
    }
    let data = page.subarray(v2.definition_levels_byte_length);
    if (v2.is_compressed !== false) {
      data = decompressPage(data, header.uncompressed_page_size - v2.definition_levels_byte_length, codec, compressors);
    }
    const count = v2.num_values - v2.num_nulls;
    const lengths = new Int32Array(count);
    const dataReader = { view: new DataView(data.buffer, data.byteOffset, data.byteLength), offset: 0 };
    deltaBinaryUnpack(dataReader, count, lengths);
    const body = data.subarray(dataReader.offset);
    if (!isAscii(body)) return null;
    // Node's latin1 slice is a copy; the WHATWG 'latin1' decoder (windows-1252) is far slower.
    texts.push(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('latin1'));
    let at = base;
    let k = 0;
    for (let i = 0; i < v2.num_values; i++, row++) {
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
  return row === rows ? new LazyStrings(texts.join(''), starts, ends) : null;
}
