/**
 * The columnar tape: a Parquet file with one row a swap, one column a swap field, and the
 * tape's header (network, tokens, native prices) as JSON in the file's key-value metadata.
 * Decimals are UTF-8 strings, so every digit stays exactly as written; repeated values are
 * dictionary-encoded by the writer (wallets, tokens and types always are). See docs/columnar-tape.md.
 */
import type { SchemaElement } from 'hyparquet';

/** The swap fields in column order. */
export const SWAP_COLUMNS = [
  'wallet',
  'token',
  'type',
  'time',
  'quantity',
  'usd_price',
  'usd_amount',
  'usd_liquidity',
  'transaction_hash',
] as const;
export type SwapColumn = (typeof SWAP_COLUMNS)[number];

/** Decimal fields: strings in the file; a JSON number is written as its shortest text. */
export const DECIMAL_COLUMNS = ['quantity', 'usd_price', 'usd_amount', 'usd_liquidity'] as const;
export type DecimalColumn = (typeof DECIMAL_COLUMNS)[number];

/** Fields a swap may lack (a null in the file). */
export const OPTIONAL_COLUMNS = ['usd_amount', 'usd_liquidity', 'transaction_hash'] as const;
export type OptionalColumn = (typeof OPTIONAL_COLUMNS)[number];

/**
 * A column beside the swap fields: per row, a bit mask of the optional fields that the JSON
 * tape spelled as an explicit `null` rather than leaving out (bit i for OPTIONAL_COLUMNS[i]).
 * Both mean "unknown" to the engine; the mask only makes the way back to JSON exact.
 */
export const NULLS_COLUMN = 'explicit_nulls';

/** Key-value metadata keys. */
export const META_FORMAT = 'copysim.tape.format';
export const META_HEADER = 'copysim.tape.header';
export const META_FORMS = 'copysim.tape.forms';
/** The value of {@link META_FORMAT} this code writes and reads. */
export const FORMAT_VERSION = 'copysim-tape-1';

/**
 * How the JSON tape spelled values, so that converting back gives the same JSON: the decimal
 * fields whose every value was a JSON number, and whether the swaps were in non-decreasing time
 * (then a reader may stream them).
 */
export interface TapeForms {
  readonly numberFields: readonly DecimalColumn[];
  readonly timeOrdered: boolean;
}

function stringColumn(name: SwapColumn, optional: boolean): SchemaElement {
  return { name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: optional ? 'OPTIONAL' : 'REQUIRED' };
}

/** The Parquet schema of a tape: times are INT64 seconds, everything else UTF-8 strings. */
export const TAPE_SCHEMA: SchemaElement[] = [
  { name: 'root', num_children: SWAP_COLUMNS.length + 1 },
  ...SWAP_COLUMNS.map(
    (name): SchemaElement =>
      name === 'time'
        ? { name, type: 'INT64', repetition_type: 'REQUIRED' }
        : stringColumn(name, (OPTIONAL_COLUMNS as readonly string[]).includes(name)),
  ),
  { name: NULLS_COLUMN, type: 'INT32', repetition_type: 'REQUIRED' },
];

/**
 * Rows a row group holds. Each group repeats its dictionaries (20,000 wallets are ~0.6 MB
 * compressed), so groups are large; a reader holds one decoded group at a time, and a quarter
 * of a million swaps keep that to about a hundred MB (a million took the 10M-swap simulation
 * past 1.5 GB).
 */
export const ROW_GROUP_ROWS = 250_000;

/** True for a file name in the columnar form (`.parquet`). */
export function isParquetPath(path: string): boolean {
  return path.toLowerCase().endsWith('.parquet');
}
