import { closeSync, fstatSync, openSync } from 'node:fs';
import { readRange } from '../files.js';
import * as zlib from 'node:zlib';
import { parquetMetadata, parquetSchema, type ColumnChunk, type FileMetaData } from 'hyparquet';
import { readColumn } from 'hyparquet/src/column.js';
import { DEFAULT_PARSERS } from 'hyparquet/src/convert.js';
import { getTreePath } from 'hyparquet/src/schema.js';
import { readDeltaInt64 } from './fast-int64.js';
import { readDeltaLengthStrings } from './fast-strings.js';
import {
  columnsValid,
  decodedRowGroup,
  type DecodedColumns,
  type DecodedRowGroup,
  type FileColumn,
  type RowGroupColumns,
} from './row-group.js';
import { columnReading, type ColumnConversion, type ColumnReading } from './column-types.js';
import { resolveHeader, type TapeHeaderOptions } from './header.js';
import { z } from 'zod';
import { InputError } from '../../model/errors.js';
import { TapeHeaderSchema, type TapeHeader } from '../../model/tape.js';
import {
  DECIMAL_COLUMNS,
  FORMAT_VERSION,
  META_FORMAT,
  META_FORMS,
  META_HEADER,
  NULLS_COLUMN,
  OPTIONAL_COLUMNS,
  SWAP_COLUMNS,
  type OptionalColumn,
  type SwapColumn,
  type TapeForms,
} from './format.js';

const FormsSchema = z.object({
  numberFields: z.array(z.enum(DECIMAL_COLUMNS)),
  timeOrdered: z.boolean(),
});

const REQUIRED_COLUMNS: readonly SwapColumn[] = SWAP_COLUMNS.filter(
  (c) => !(OPTIONAL_COLUMNS as readonly string[]).includes(c),
);

/** zstd, in node:zlib from Node 22.15 on (Node 20 has none). */
const zstdDecompressSync = (zlib as { zstdDecompressSync?: (input: Uint8Array) => Uint8Array }).zstdDecompressSync;
/** Decompressors for the codecs other writers use too (snappy is built into hyparquet). */
const DECOMPRESSORS = {
  BROTLI: (input: Uint8Array): Uint8Array => zlib.brotliDecompressSync(input),
  GZIP: (input: Uint8Array): Uint8Array => zlib.gunzipSync(input),
  ...(zstdDecompressSync !== undefined ? { ZSTD: (input: Uint8Array) => zstdDecompressSync(input) } : {}),
};
/** The codecs a column chunk may have. */
const CODECS: ReadonlySet<string> = new Set(['UNCOMPRESSED', 'SNAPPY', ...Object.keys(DECOMPRESSORS)]);

const utf8 = new TextDecoder();
/** Strings of the tape are almost always ASCII: decode those without the UTF-8 decoder's cost. */
function stringFromBytes(bytes: Uint8Array | undefined): string | undefined {
  if (bytes === undefined) return undefined;
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! > 0x7f) return utf8.decode(bytes);
  return bytes.length < 24
    ? String.fromCharCode.apply(null, bytes as unknown as number[])
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}
const PARSERS = { ...DEFAULT_PARSERS, stringFromBytes };

/**
 * A Parquet tape file, read a row group at a time: at most one decoded row group is in memory,
 * so a tape of any size streams. The header comes from the file's key-value metadata, or from
 * `headerOptions` for a file another program wrote (see {@link TapeHeaderOptions}); so may the
 * columns' types (DOUBLE, DECIMAL, TIMESTAMP, …: column-types.ts). A file that is not a readable
 * tape (truncated, corrupt, a missing column, a column of a type no tape column has) is an
 * {@link InputError} naming the file and the row group or column.
 *
 * @example
 * const file = new ParquetTapeFile('tape.parquet');
 * try {
 *   for (const swap of file.swaps()) use(swap);
 * } finally {
 *   file.close();
 * }
 */
export class ParquetTapeFile {
  /** The header `{network, tokens, native_prices}`, validated. */
  readonly header: TapeHeader;
  /** How the values were spelled in JSON (see {@link TapeForms}). */
  readonly forms: TapeForms;
  /** The decimal fields spelled as JSON numbers (`forms.numberFields`), for the row groups' readers. */
  private readonly numbers: ReadonlySet<string>;
  readonly rows: number;
  private readonly fd: number;
  private closed = false;
  private readonly size: number;
  private readonly metadata: FileMetaData;
  /** The file's schema tree, made once from the footer. */
  private readonly schema: ReturnType<typeof parquetSchema>;
  /** How each swap column present in the file is read. */
  private readonly readings = new Map<SwapColumn, ColumnReading>();
  /** Row index (0-based) of the swap last given by {@link swaps}. */
  row = -1;

  /**
   * @param onProgress called after each row group with the swaps read and the file's total
   * @param headerOptions the header, or what it lacks, for a file without copysim's header metadata
   */
  constructor(
    readonly path: string,
    private readonly onProgress?: (rowsRead: number, totalRows: number) => void,
    readonly headerOptions: TapeHeaderOptions = {},
  ) {
    try {
      this.fd = openSync(path, 'r');
    } catch (e) {
      const reason = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message;
      throw new InputError(`tape file ${path}: ${reason}`, { source: path });
    }
    try {
      this.size = fstatSync(this.fd).size;
      this.metadata = this.readMetadata();
      this.schema = parquetSchema(this.metadata);
      this.checkColumns();
      this.checkCodecs();
      this.header = resolveHeader(this.readHeader(), headerOptions, (message) => this.error(message));
      this.forms = this.readForms();
      this.numbers = new Set(this.forms.numberFields);
      this.rows = Number(this.metadata.num_rows);
    } catch (e) {
      this.close();
      throw e;
    }
  }

  /**
   * Closes the file, once: a descriptor closed a second time may by then be another file's,
   * opened meanwhile by this thread or another (a reading thread, a thread loading its modules).
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  /**
   * The swaps, a row group at a time, as the JSON tape spelled them; {@link row} follows them.
   * `without` leaves fields out: their columns are not read at all (a simulation never looks at
   * `transaction_hash`, the largest column of a tape).
   */
  *swaps(without: readonly OptionalColumn[] = []): Generator<Record<string, unknown>> {
    for (const group of this.rowGroups(without)) {
      for (let i = 0; i < group.rows; i++) {
        this.row = group.start + i;
        yield group.swap(i);
      }
    }
  }

  /**
   * The row groups in order, each decoded once on this thread: `swap(i)` builds its i-th swap.
   * For a loop that wants no generator between the file and the swaps; set {@link row} as it
   * goes. `rowGroupsAhead` (decode-ahead.ts) gives the same groups, decoded by this thread and a
   * thread of their own together.
   */
  *rowGroups(
    without: readonly OptionalColumn[] = [],
    /** How group `g` is decoded (rowGroupsAhead shares the work with a thread); by default, here. */
    decode: (g: number, skipped: ReadonlySet<string>) => DecodedColumns = (g, skipped) =>
      this.decodeRowGroup(g, skipped),
  ): Generator<DecodedRowGroup> {
    const skipped = new Set<string>(without);
    let start = 0;
    for (let g = 0; g < this.rowGroupCount; g++) {
      const { columns, valid, priceWords } = decode(g, skipped);
      const rows = this.rowGroupRows(g);
      yield decodedRowGroup(columns, start, rows, this.numbers, skipped, valid, priceWords);
      start += rows;
      this.onProgress?.(start, this.rows);
    }
  }

  get rowGroupCount(): number {
    return this.metadata.row_groups.length;
  }

  /** Rows of row group `g`. */
  rowGroupRows(g: number): number {
    return Number(this.metadata.row_groups[g]!.num_rows);
  }

  /**
   * Row group `g` decoded on this thread, without the columns of `skipped`, and whether every
   * row makes a valid swap (checked a column at a time: see `DecodedRowGroup.valid`).
   */
  decodeRowGroup(
    g: number,
    skipped: ReadonlySet<string>,
  ): { readonly columns: RowGroupColumns; readonly valid: boolean; readonly priceWords: null } {
    const columns = this.readRowGroup(g, skipped);
    const valid = columnsValid(columns, this.rowGroupRows(g), this.numbers, skipped);
    return { columns, valid, priceWords: null };
  }

  /** An {@link InputError} about this file. */
  error(message: string, extra: { line?: number; swapIndex?: number } = {}): InputError {
    return new InputError(`${this.path}: ${message}`, { source: this.path, ...extra });
  }

  private readBytes(start: number, length: number): Uint8Array {
    if (start < 0 || length < 0 || start + length > this.size) {
      throw this.error(
        `not a readable Parquet file: bytes ${start}..${start + length} lie past its end (${this.size} bytes)` +
          `: the file is truncated`,
      );
    }
    return readRange(this.fd, start, length);
  }

  private readMetadata(): FileMetaData {
    if (this.size < 12) throw this.error(`not a Parquet file: ${this.size} bytes, too short for one`);
    const tail = this.readBytes(this.size - 8, 8);
    const magic = String.fromCharCode(...tail.subarray(4));
    if (magic !== 'PAR1') {
      throw this.error(
        `not a Parquet file (it does not end with "PAR1"): truncated or another format` +
          `; a JSON tape needs the .json extension`,
      );
    }
    const length = new DataView(tail.buffer, tail.byteOffset, tail.byteLength).getUint32(0, true);
    if (length + 8 > this.size - 4)
      throw this.error(`not a readable Parquet file: its footer claims ${length} bytes, more than the file holds`);
    try {
      return parquetMetadata(this.readBytes(this.size - 8 - length, length + 8), { parsers: PARSERS });
    } catch (e) {
      throw this.error(`not a readable Parquet file: its footer is corrupt (${(e as Error).message})`);
    }
  }

  private checkColumns(): void {
    const top = this.schema.children;
    const byName = new Map(top.map((c) => [c.element.name, c.element]));
    for (const name of SWAP_COLUMNS) {
      const element = byName.get(name);
      if (element === undefined) {
        if (REQUIRED_COLUMNS.includes(name)) throw this.error(this.missingColumn(name, [...byName.keys()]));
        continue;
      }
      const reading = columnReading(name, element);
      if (typeof reading === 'string') throw this.error(reading);
      this.readings.set(name, reading);
    }
  }

  private missingColumn(name: SwapColumn, columns: readonly string[]): string {
    const shown = columns.length > 20 ? [...columns.slice(0, 20), '…'] : columns;
    return (
      `no column "${name}": a tape needs the columns ${REQUIRED_COLUMNS.join(', ')}` +
      ` (and may have ${OPTIONAL_COLUMNS.join(', ')}); the file has ${shown.join(', ') || 'none'}` +
      `: name the column that holds it "${name}" (in DuckDB: SELECT … AS ${name})`
    );
  }

  /** Every chunk of a swap column compressed with a codec this reader has (hyparquet has only snappy). */
  private checkCodecs(): void {
    for (const group of this.metadata.row_groups) {
      for (const chunk of group.columns) {
        const meta = chunk.meta_data;
        if (meta === undefined || CODECS.has(meta.codec)) continue;
        const name = meta.path_in_schema.join('.');
        if (!(SWAP_COLUMNS as readonly string[]).includes(name)) continue;
        const later = meta.codec === 'ZSTD' ? ` on Node ${process.versions.node} (Node 22.15 or later does)` : '';
        throw this.error(
          `column "${name}" is compressed with ${meta.codec}, which copysim cannot decompress${later}: write the` +
            ` file with SNAPPY, GZIP, BROTLI or no compression (DuckDB: COPY … TO 'x.parquet' (COMPRESSION snappy))`,
        );
      }
    }
  }

  private keyValue(key: string): string | undefined {
    return this.metadata.key_value_metadata?.find((kv) => kv.key === key)?.value;
  }

  /** The header of copysim's metadata; null when the file has none (another program wrote it). */
  private readHeader(): TapeHeader | null {
    const format = this.keyValue(META_FORMAT);
    if (format !== undefined && format !== FORMAT_VERSION)
      throw this.error(`tape format "${format}" is not ${FORMAT_VERSION}: written by a newer copysim?`);
    const text = this.keyValue(META_HEADER);
    if (text === undefined) return null;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw this.error(`metadata "${META_HEADER}" is not valid JSON: ${(e as Error).message}`);
    }
    const parsed = TapeHeaderSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw this.error(`metadata "${META_HEADER}": ${issue.path.join('.')}: ${issue.message}`);
    }
    return parsed.data;
  }

  private readForms(): TapeForms {
    const text = this.keyValue(META_FORMS);
    if (text === undefined) return { numberFields: [], timeOrdered: false };
    try {
      return FormsSchema.parse(JSON.parse(text));
    } catch {
      throw this.error(`metadata "${META_FORMS}" is not {numberFields, timeOrdered}`);
    }
  }

  private readRowGroup(g: number, skipped: ReadonlySet<string>): RowGroupColumns {
    const group = this.metadata.row_groups[g]!;
    const rows = Number(group.num_rows);
    const out: Partial<RowGroupColumns> = {};
    for (const name of [...SWAP_COLUMNS, NULLS_COLUMN] as const) {
      const chunk = skipped.has(name)
        ? undefined
        : group.columns.find((c) => c.meta_data?.path_in_schema.join('.') === name);
      if (chunk === undefined) {
        if ((REQUIRED_COLUMNS as readonly string[]).includes(name))
          throw this.error(`row group ${g}: no column chunk "${name}"`);
        out[name] = new Array<undefined>(rows);
        continue;
      }
      const reading = name === NULLS_COLUMN ? undefined : this.readings.get(name);
      out[name] = this.readChunk(chunk, name, g, rows, getTreePath(this.schema, [name]), reading);
    }
    return out as RowGroupColumns;
  }

  /** A column chunk decoded, then converted to the tape's values when `reading` says how (another writer's type). */
  private readChunk(
    chunk: ColumnChunk,
    name: string,
    g: number,
    rows: number,
    schemaPath: ReturnType<typeof getTreePath>,
    reading: ColumnReading | undefined,
  ): FileColumn {
    const meta = chunk.meta_data!;
    const start = Number(meta.dictionary_page_offset ?? meta.data_page_offset);
    const bytes = this.readBytes(start, Number(meta.total_compressed_size));
    const convert = reading?.convert ?? null;
    let values: FileColumn | null = null;
    try {
      if (convert === null) values = this.readFast(bytes, meta, rows, schemaPath);
      if (values !== null) return values;
      const element = reading?.element ?? schemaPath[schemaPath.length - 1]!.element;
      const { data } = readColumn(
        { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 },
        { groupStart: 0, selectStart: 0, selectEnd: rows, groupRows: rows },
        {
          pathInSchema: meta.path_in_schema,
          type: meta.type,
          element,
          schemaPath,
          codec: meta.codec,
          parsers: PARSERS,
          compressors: DECOMPRESSORS,
          ...(reading?.utf8 === false ? { utf8: false } : {}),
        },
      );
      values = data.length === 1 ? data[0]! : concat(data as ArrayLike<unknown>[]);
    } catch (e) {
      throw this.error(
        `row group ${g}, column "${name}": cannot be decoded (${(e as Error).message}): the file is corrupt`,
      );
    }
    if (values.length !== rows) {
      throw this.error(
        `row group ${g}, column "${name}": ${values.length} values for ${rows} rows: the file is corrupt`,
      );
    }
    return convert === null ? values : this.converted(convert, values as ArrayLike<unknown>, name, g);
  }

  /** The fast decoders' reading of the tape writer's layouts (fast-strings.ts, fast-int64.ts); null for another. */
  private readFast(
    bytes: Uint8Array,
    meta: NonNullable<ColumnChunk['meta_data']>,
    rows: number,
    schemaPath: ReturnType<typeof getTreePath>,
  ): FileColumn | null {
    if (meta.dictionary_page_offset !== undefined) return null;
    if (meta.type === 'BYTE_ARRAY' && meta.encodings.includes('DELTA_LENGTH_BYTE_ARRAY')) {
      const optional = schemaPath[schemaPath.length - 1]!.element.repetition_type === 'OPTIONAL';
      return readDeltaLengthStrings(bytes, meta.codec, DECOMPRESSORS, rows, optional);
    }
    if (meta.type === 'INT64' && meta.encodings.includes('DELTA_BINARY_PACKED'))
      return readDeltaInt64(bytes, meta.codec, DECOMPRESSORS, rows);
    return null;
  }

  private converted(convert: ColumnConversion, values: ArrayLike<unknown>, name: string, g: number): unknown[] {
    try {
      return convert(values);
    } catch (e) {
      throw this.error(`row group ${g}, column "${name}": a value cannot be read (${(e as Error).message})`);
    }
  }
}

/** The pages of a column chunk as one array (a plain loop: flatMap over typed arrays is slow). */
function concat(pages: readonly ArrayLike<unknown>[]): unknown[] {
  let total = 0;
  for (const page of pages) total += page.length;
  const out = new Array<unknown>(total);
  let k = 0;
  for (const page of pages) for (let i = 0; i < page.length; i++) out[k++] = page[i];
  return out;
}
