import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { parquetMetadata, parquetSchema, type ColumnChunk, type FileMetaData } from 'hyparquet';
import { readColumn } from 'hyparquet/src/column.js';
import { DEFAULT_PARSERS } from 'hyparquet/src/convert.js';
import { getTreePath } from 'hyparquet/src/schema.js';
import { readDeltaInt64 } from './fast-int64.js';
import { readDeltaLengthStrings } from './fast-strings.js';
import { decodedRowGroup, type Column, type DecodedRowGroup, type RowGroupColumns } from './row-group.js';
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

/** The physical type each column must have, and the words an error uses for it. */
const EXPECTED_TYPE: Record<SwapColumn, { type: string; words: string }> = Object.fromEntries(
  SWAP_COLUMNS.map((c) => [
    c,
    c === 'time'
      ? { type: 'INT64', words: 'INT64 (seconds)' }
      : { type: 'BYTE_ARRAY', words: 'a UTF-8 string (BYTE_ARRAY)' },
  ]),
) as never;
const REQUIRED_COLUMNS: readonly SwapColumn[] = SWAP_COLUMNS.filter(
  (c) => !(OPTIONAL_COLUMNS as readonly string[]).includes(c),
);

/** Decompressors for the codecs other writers use too (snappy is built into hyparquet). */
const DECOMPRESSORS = {
  BROTLI: (input: Uint8Array): Uint8Array => brotliDecompressSync(input),
  GZIP: (input: Uint8Array): Uint8Array => gunzipSync(input),
};

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
 * so a tape of any size streams. The header comes from the file's key-value metadata. A file
 * that is not a readable copysim tape (truncated, corrupt, a missing column, a column of the
 * wrong type) is an {@link InputError} naming the file and the row group or column.
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
  readonly rows: number;
  private readonly fd: number;
  private readonly size: number;
  private readonly metadata: FileMetaData;
  /** The file's schema tree, made once from the footer. */
  private readonly schema: ReturnType<typeof parquetSchema>;
  /** Row index (0-based) of the swap last given by {@link swaps}. */
  row = -1;

  /** @param onProgress called after each row group with the swaps read and the file's total */
  constructor(
    readonly path: string,
    private readonly onProgress?: (rowsRead: number, totalRows: number) => void,
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
      this.header = this.readHeader();
      this.forms = this.readForms();
      this.rows = Number(this.metadata.num_rows);
    } catch (e) {
      this.close();
      throw e;
    }
  }

  close(): void {
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
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
   * The row groups in order, each decoded once: `swap(i)` builds its i-th swap. For a loop that
   * wants no generator between the file and the swaps; set {@link row} as it goes.
   */
  *rowGroups(without: readonly OptionalColumn[] = []): Generator<DecodedRowGroup> {
    const numbers = new Set<string>(this.forms.numberFields);
    const skipped = new Set<string>(without);
    let start = 0;
    for (let g = 0; g < this.metadata.row_groups.length; g++) {
      const rows = Number(this.metadata.row_groups[g]!.num_rows);
      yield decodedRowGroup(this.readRowGroup(g, skipped), start, rows, numbers, skipped);
      start += rows;
      this.onProgress?.(start, this.rows);
    }
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
    const bytes = new Uint8Array(length);
    let done = 0;
    while (done < length) {
      const n = readSync(this.fd, bytes, done, length - done, start + done);
      if (n === 0) break;
      done += n;
    }
    return bytes;
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
    const length = new DataView(tail.buffer).getUint32(0, true);
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
      const expected = EXPECTED_TYPE[name];
      if (element === undefined) {
        if (REQUIRED_COLUMNS.includes(name)) {
          throw this.error(
            `no column "${name}": a tape needs the columns ${REQUIRED_COLUMNS.join(', ')}` +
              ` (and may have ${OPTIONAL_COLUMNS.join(', ')})`,
          );
        }
        continue;
      }
      if (element.type !== expected.type) {
        throw this.error(`column "${name}" is ${element.type ?? 'a group'}, expected ${expected.words}`);
      }
    }
  }

  private keyValue(key: string): string | undefined {
    return this.metadata.key_value_metadata?.find((kv) => kv.key === key)?.value;
  }

  private readHeader(): TapeHeader {
    const format = this.keyValue(META_FORMAT);
    if (format !== undefined && format !== FORMAT_VERSION)
      throw this.error(`tape format "${format}" is not ${FORMAT_VERSION}: written by a newer copysim?`);
    const text = this.keyValue(META_HEADER);
    if (text === undefined) {
      throw this.error(
        `no "${META_HEADER}" key-value metadata: the tape's network, tokens and native prices are missing` +
          ` (write Parquet tapes with copysim convert)`,
      );
    }
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
      out[name] = this.readChunk(chunk, name, g, rows, getTreePath(this.schema, [name]));
    }
    return out as RowGroupColumns;
  }

  private readChunk(
    chunk: ColumnChunk,
    name: string,
    g: number,
    rows: number,
    schemaPath: ReturnType<typeof getTreePath>,
  ): Column {
    const meta = chunk.meta_data!;
    const start = Number(meta.dictionary_page_offset ?? meta.data_page_offset);
    const bytes = this.readBytes(start, Number(meta.total_compressed_size));
    let values: Column | null = null;
    try {
      if (
        meta.type === 'BYTE_ARRAY' &&
        meta.encodings.includes('DELTA_LENGTH_BYTE_ARRAY') &&
        meta.dictionary_page_offset === undefined
      ) {
        const optional = schemaPath[schemaPath.length - 1]!.element.repetition_type === 'OPTIONAL';
        values = readDeltaLengthStrings(bytes, meta.codec, DECOMPRESSORS, rows, optional);
      } else if (
        meta.type === 'INT64' &&
        meta.encodings.includes('DELTA_BINARY_PACKED') &&
        meta.dictionary_page_offset === undefined
      ) {
        values = readDeltaInt64(bytes, meta.codec, DECOMPRESSORS, rows);
      }
      if (values !== null) return values;
      const { data } = readColumn(
        { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 },
        { groupStart: 0, selectStart: 0, selectEnd: rows, groupRows: rows },
        {
          pathInSchema: meta.path_in_schema,
          type: meta.type,
          element: schemaPath[schemaPath.length - 1]!.element,
          schemaPath,
          codec: meta.codec,
          parsers: PARSERS,
          compressors: DECOMPRESSORS,
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
    return values;
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
