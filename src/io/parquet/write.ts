import { brotliCompressSync, constants as zlib } from 'node:zlib';
import type { KeyValue } from 'hyparquet';
import { fileWriter, ParquetWriter, type ColumnSource } from 'hyparquet-writer';
import type { DecimalInput } from '../../numeric/decimal.js';
import type { TapeHeader, TapeInput } from '../../model/tape.js';
import {
  DECIMAL_COLUMNS,
  FORMAT_VERSION,
  META_FORMAT,
  META_FORMS,
  META_HEADER,
  NULLS_COLUMN,
  OPTIONAL_COLUMNS,
  ROW_GROUP_ROWS,
  SWAP_COLUMNS,
  TAPE_SCHEMA,
  type DecimalColumn,
  type SwapColumn,
  type TapeForms,
} from './format.js';

/** A swap as a tape holds it (validated, or as an importer writes it). */
type SwapInput = TapeInput['swaps'][number];

/**
 * Brotli at quality 5: the decimal digits and base58 hashes shrink to about their entropy, and
 * it decompresses several times faster than the file can be parsed as JSON (see docs/columnar-tape.md).
 */
export const BROTLI_QUALITY = 5;

function brotli(input: Uint8Array): Uint8Array {
  return brotliCompressSync(input, {
    params: { [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: input.length },
  });
}

function decimalText(value: DecimalInput): string {
  return typeof value === 'number' ? String(value) : value;
}

/**
 * Writes a tape as Parquet, a row group at a time, so a tape of any size is written in bounded
 * memory: {@link add} swaps in tape order, then {@link finish}.
 *
 * @example
 * const out = new ParquetTapeWriter('tape.parquet', header);
 * for (const swap of swaps) out.add(swap);
 * out.finish();
 */
export class ParquetTapeWriter {
  private readonly writer: ParquetWriter;
  private columns = emptyColumns();
  private rows = 0;
  private lastTime = -Infinity;
  private timeOrdered = true;
  /** Per decimal field: no value so far was a string. */
  private readonly allNumbers = new Set<DecimalColumn>(DECIMAL_COLUMNS);

  constructor(
    readonly path: string,
    private readonly header: TapeHeader | Omit<TapeInput, 'swaps'>,
    /** Swaps a row group holds: what one decoding step reads, and holds in memory. */
    private readonly rowGroupRows = ROW_GROUP_ROWS,
  ) {
    this.writer = new ParquetWriter({
      writer: fileWriter(path),
      schema: TAPE_SCHEMA,
      codec: 'BROTLI',
      compressors: { BROTLI: brotli },
      createdBy: 'copysim',
    });
  }

  /** Adds one swap (already valid: the caller validates). */
  add(swap: SwapInput): void {
    const c = this.columns;
    c.wallet.push(swap.wallet);
    c.token.push(swap.token);
    c.type.push(swap.type);
    c.time.push(swap.time);
    if (swap.time < this.lastTime) this.timeOrdered = false;
    this.lastTime = swap.time;
    for (const field of DECIMAL_COLUMNS) {
      const value = swap[field];
      if (typeof value === 'string') this.allNumbers.delete(field);
      c[field].push(value == null ? null : decimalText(value));
    }
    c.transaction_hash.push(swap.transaction_hash ?? null);
    let nulls = 0;
    OPTIONAL_COLUMNS.forEach((field, bit) => {
      if (swap[field] === null) nulls |= 1 << bit;
    });
    c[NULLS_COLUMN].push(nulls);
    if (++this.rows % this.rowGroupRows === 0) this.flush();
  }

  /** Writes the last row group and the footer with the header and the value forms. */
  finish(): void {
    this.flush();
    const forms: TapeForms = {
      numberFields: DECIMAL_COLUMNS.filter((f) => this.allNumbers.has(f)),
      timeOrdered: this.timeOrdered,
    };
    const { network, tokens, native_prices } = this.header;
    const kv: KeyValue[] = [
      { key: META_FORMAT, value: FORMAT_VERSION },
      {
        key: META_HEADER,
        value: JSON.stringify({ network, tokens: tokens ?? {}, native_prices: native_prices ?? [] }),
      },
      { key: META_FORMS, value: JSON.stringify(forms) },
    ];
    this.writer.kvMetadata = kv;
    this.writer.finish();
  }

  private flush(): void {
    const c = this.columns;
    if (c.wallet.length === 0) return;
    const columnData: ColumnSource[] = ([...SWAP_COLUMNS, NULLS_COLUMN] as const).map((name) => ({
      name,
      data: c[name],
      // Times are sorted or nearly: deltas pack them into a few bits each.
      ...(name === 'time' ? { encoding: 'DELTA_BINARY_PACKED' as const } : {}),
      // Hashes and decimals are mostly unique: their lengths apart from their bytes (deltas of
      // near-equal lengths take a few bits) instead of a 4-byte length before each value.
      ...(name === 'transaction_hash' || (DECIMAL_COLUMNS as readonly string[]).includes(name)
        ? { encoding: 'DELTA_LENGTH_BYTE_ARRAY' as const }
        : {}),
      statistics: name === 'time',
    }));
    this.writer.write({ columnData, rowGroupSize: c.wallet.length });
    this.columns = emptyColumns();
  }
}

function emptyColumns(): {
  [K in SwapColumn | typeof NULLS_COLUMN]: (K extends 'time' | typeof NULLS_COLUMN ? number : string | null)[];
} {
  return {
    wallet: [],
    token: [],
    type: [],
    time: [],
    quantity: [],
    usd_price: [],
    usd_amount: [],
    usd_liquidity: [],
    transaction_hash: [],
    [NULLS_COLUMN]: [],
  };
}

/**
 * Writes a whole tape as Parquet.
 *
 * @example
 * writeParquetTape('tape.parquet', readTapeFile('tape.json'));
 */
export function writeParquetTape(path: string, tape: TapeInput, rowGroupRows = ROW_GROUP_ROWS): void {
  const { swaps, ...header } = tape;
  const out = new ParquetTapeWriter(path, header, rowGroupRows);
  for (const swap of swaps) out.add(swap);
  out.finish();
}
