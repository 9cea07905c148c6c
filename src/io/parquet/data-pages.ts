import type { CompressionCodec, Compressors, Encoding } from 'hyparquet';
import { parquetHeader } from 'hyparquet/src/column.js';
import { decompressPage } from 'hyparquet/src/datapage.js';

/** One data page (v2) of a column chunk, its values decompressed. */
export interface DataPageV2 {
  readonly values: number;
  readonly nulls: number;
  /** The definition levels, as written (never compressed in a v2 page); empty for a required column. */
  readonly levels: Uint8Array;
  readonly data: Uint8Array;
}

/**
 * The data pages of a column chunk, for the decoders that read the tape writer's layouts faster
 * than hyparquet's general path: null unless every page is a v2 data page in `encoding` without
 * repetition levels and the pages hold exactly `rows` values. The caller then reads the chunk
 * through hyparquet.
 */
export function dataPagesV2(
  bytes: Uint8Array,
  codec: CompressionCodec,
  compressors: Compressors,
  rows: number,
  encoding: Encoding,
): DataPageV2[] | null {
  const reader = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 };
  const pages: DataPageV2[] = [];
  let row = 0;
  while (row < rows && reader.offset < bytes.length) {
    const header = parquetHeader(reader);
    const v2 = header.data_page_header_v2;
    if (
      header.type !== 'DATA_PAGE_V2' ||
      v2 === undefined ||
      v2.encoding !== encoding ||
      v2.repetition_levels_byte_length !== 0
    )
      return null;
    if (row + v2.num_values > rows) return null;
    const page = bytes.subarray(reader.offset, reader.offset + header.compressed_page_size);
    reader.offset += header.compressed_page_size;
    const levelBytes = v2.definition_levels_byte_length;
    let data = page.subarray(levelBytes);
    if (v2.is_compressed !== false)
      data = decompressPage(data, header.uncompressed_page_size - levelBytes, codec, compressors);
    pages.push({ values: v2.num_values, nulls: v2.num_nulls, levels: page.subarray(0, levelBytes), data });
    row += v2.num_values;
  }
  return row === rows ? pages : null;
}
