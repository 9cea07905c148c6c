import { isPositiveDecimal } from '../../engine/tape-check.js';
import type { PriceTick } from '../../engine/known-prices.js';
import { SWAP_TIME_LIMIT, type Swap } from '../../model/tape.js';
import { isPositiveDecimalText } from '../../numeric/decimal.js';
import { doubleWord, rawToWord } from '../../numeric/double-word.js';
import { LazyStrings } from './fast-strings.js';
import { Doubles, TableStrings } from './column-wire.js';
import {
  DECIMAL_COLUMNS,
  NULLS_COLUMN,
  OPTIONAL_COLUMNS,
  SWAP_COLUMNS,
  type DecimalColumn,
  type SwapColumn,
} from './format.js';

/** A column decoded from a file: its values, or strings made when read. */
export type FileColumn = ArrayLike<unknown> | LazyStrings;
/** A column as a row group's readers take it: also strings by their place in a table, or doubles (column-wire.ts). */
export type Column = FileColumn | TableStrings | Doubles;
/** One row group decoded from a file: a column of values per swap field. */
export type RowGroupColumns = Record<SwapColumn | typeof NULLS_COLUMN, FileColumn>;
/** One row group's columns as its readers take them. */
export type ReadableColumns = Record<SwapColumn | typeof NULLS_COLUMN, Column>;
/** A row group's columns and whether every row makes a valid swap ({@link columnsValid}). */
export interface DecodedColumns {
  readonly columns: ReadableColumns;
  readonly valid: boolean;
  /**
   * Each row's `usd_price` as a double word (high, low) when the thread that decoded the group
   * made them ({@link priceWordsOf}), else null.
   */
  readonly priceWords: Float64Array | null;
}

/** A swap of a wallet not followed, as far as a replay reads it, with its wallet. */
export type MarketTick = PriceTick & { readonly wallet: string };

/** One decoded row group of a Parquet tape. */
export interface DecodedRowGroup {
  /** Row index (0-based) of its first swap in the file. */
  readonly start: number;
  readonly rows: number;
  /**
   * True when every row is a valid swap (what `isValidSwap` says of each), checked a column at
   * a time; then `wallet`, `token` and `tick` may stand in for a whole swap.
   */
  readonly valid: boolean;
  /** Its i-th swap, as the JSON tape spelled it. */
  readonly swap: (i: number) => Record<string, unknown>;
  readonly wallet: (i: number) => string;
  readonly token: (i: number) => string;
  /** What a replay reads of the i-th swap when its wallet is not followed. */
  readonly tick: (i: number) => MarketTick;
  /** Each swap's `usd_price` as a double word (high, low), or null when it was not made ahead. */
  readonly priceWords: Float64Array | null;
  /** The wallets and the tokens as places in their file's tables, when they came so from another thread. */
  readonly walletTable: TableStrings | null;
  readonly tokenTable: TableStrings | null;
}

/** The i-th value of a column, whatever its kind. */
function reader(column: Column): (i: number) => unknown {
  if (column instanceof LazyStrings || column instanceof TableStrings || column instanceof Doubles)
    return (i) => column.at(i);
  return (i) => column[i];
}

/**
 * A decoded row group's swaps. A decimal of a number-form field becomes a number again; a
 * skipped field is left out, also where the JSON tape spelled it as `null`.
 */
export function decodedRowGroup(
  columns: ReadableColumns,
  start: number,
  rows: number,
  numbers: ReadonlySet<string>,
  skipped: ReadonlySet<string>,
  /** {@link columnsValid} of the columns (decoded on another thread, they were checked there). */
  valid: boolean,
  /** The prices' double words made by the thread that decoded the columns, or null. */
  priceWords: Float64Array | null,
): DecodedRowGroup {
  const [wallet, token, type, time, quantity, usd_price, usd_amount, usd_liquidity, transaction_hash, nulls] = (
    [...SWAP_COLUMNS, NULLS_COLUMN] as const
  ).map((name) => reader(columns[name]));
  const [quantityNumber, priceNumber, amountNumber, liquidityNumber] = DECIMAL_COLUMNS.map((field) =>
    numbers.has(field),
  );
  const decimal = (isNumber: boolean | undefined, value: unknown): unknown =>
    value == null || !isNumber ? value : Number(value);
  const readMask = readMaskOf(skipped);
  const explicitNulls = (i: number): number => ((nulls!(i) as number | undefined) ?? 0) & readMask;
  const liquidityAt = (i: number): unknown => {
    const liquidity = usd_liquidity!(i);
    return liquidity != null ? decimal(liquidityNumber, liquidity) : explicitNulls(i) & 2 ? null : undefined;
  };
  return {
    start,
    rows,
    valid,
    priceWords,
    walletTable: columns.wallet instanceof TableStrings ? columns.wallet : null,
    tokenTable: columns.token instanceof TableStrings ? columns.token : null,
    wallet: wallet as (i: number) => string,
    token: token as (i: number) => string,
    tick: (i) => {
      const tick: MarketTick = {
        wallet: wallet!(i) as string,
        time: Number(time!(i)),
        usd_price: decimal(priceNumber, usd_price!(i)) as Swap['usd_price'],
        usd_liquidity: liquidityAt(i) as Swap['usd_liquidity'],
      };
      return tick;
    },
    swap: (i) => {
      const swap: Record<string, unknown> = {
        wallet: wallet!(i),
        token: token!(i),
        type: type!(i),
        time: Number(time!(i)),
        quantity: decimal(quantityNumber, quantity!(i)),
        usd_price: decimal(priceNumber, usd_price!(i)),
      };
      const explicitNull = explicitNulls(i);
      const amount = usd_amount!(i);
      if (amount != null) swap.usd_amount = decimal(amountNumber, amount);
      else if (explicitNull & 1) swap.usd_amount = null;
      const liquidity = liquidityAt(i);
      if (liquidity !== undefined) swap.usd_liquidity = liquidity;
      const hash = transaction_hash!(i);
      if (hash != null) swap.transaction_hash = hash;
      else if (explicitNull & 4) swap.transaction_hash = null;
      return swap;
    },
  };
}

/**
 * Each row's `usd_price` as a double word (`rawToWord` of the value a swap of the row carries:
 * the number of a number-form column), its high part then its low part: made by the thread
 * that decodes a row group beside the replay, so that the replay's valuations read them.
 */
export function priceWordsOf(columns: ReadableColumns, rows: number, numbers: ReadonlySet<string>): Float64Array {
  const price = reader(columns.usd_price);
  const isNumber = numbers.has('usd_price');
  const words = new Float64Array(2 * rows);
  for (let i = 0; i < rows; i++) {
    const value = price(i) as string | number;
    rawToWord(WORD, isNumber ? Number(value) : value);
    words[2 * i] = WORD[0]!;
    words[2 * i + 1] = WORD[1]!;
  }
  return words;
}

/** Where {@link priceWordsOf} makes a word. */
const WORD = doubleWord();

/** Every row a non-empty string. */
function allNonEmptyStrings(column: FileColumn, rows: number): boolean {
  const at = reader(column);
  for (let i = 0; i < rows; i++) {
    const value = at(i);
    if (typeof value !== 'string' || value.length === 0) return false;
  }
  return true;
}

/** Every present value a positive decimal of the tape's range; a missing one only where `nullable`. */
function allPositiveDecimals(column: FileColumn, rows: number, isNumber: boolean, nullable: boolean): boolean {
  if (column instanceof LazyStrings) return column.every(isPositiveDecimalText, nullable);
  for (let i = 0; i < rows; i++) {
    const value = column[i];
    if (value == null ? !nullable : !isPositiveDecimal(isNumber ? Number(value) : value)) return false;
  }
  return true;
}

/** Bits of OPTIONAL_COLUMNS in the nulls column that count: usd_amount 1, usd_liquidity 2, transaction_hash 4. */
function readMaskOf(skipped: ReadonlySet<string>): number {
  return OPTIONAL_COLUMNS.reduce((mask, field, bit) => (skipped.has(field) ? mask : mask | (1 << bit)), 0);
}

/**
 * Whether each row of the group makes a swap that `isValidSwap` accepts, column by column.
 * A false here only sends the group through the per-swap check, which names the bad value.
 */
export function columnsValid(
  columns: RowGroupColumns,
  rows: number,
  numbers: ReadonlySet<string>,
  skipped: ReadonlySet<string>,
): boolean {
  const readMask = readMaskOf(skipped);
  const isNumber = (field: DecimalColumn): boolean => numbers.has(field);
  if (!allNonEmptyStrings(columns.wallet, rows) || !allNonEmptyStrings(columns.token, rows)) return false;
  const type = reader(columns.type);
  const time = reader(columns.time);
  const nulls = reader(columns[NULLS_COLUMN]);
  for (let i = 0; i < rows; i++) {
    const side = type(i);
    if (side !== 'buy' && side !== 'sell') return false;
    const t = Number(time(i));
    if (!Number.isSafeInteger(t) || t < 0 || t >= SWAP_TIME_LIMIT) return false;
    // An explicit null is no valid usd_amount or transaction_hash (usd_liquidity may be null).
    if (((nulls(i) as number | undefined) ?? 0) & readMask & 0b101) return false;
  }
  return (
    allPositiveDecimals(columns.quantity, rows, isNumber('quantity'), false) &&
    allPositiveDecimals(columns.usd_price, rows, isNumber('usd_price'), false) &&
    allPositiveDecimals(columns.usd_amount, rows, isNumber('usd_amount'), true) &&
    allPositiveDecimals(columns.usd_liquidity, rows, isNumber('usd_liquidity'), true) &&
    allStrings(columns.transaction_hash, rows)
  );
}

/** Every present value a string (the hashes; a skipped column has none). */
function allStrings(column: FileColumn, rows: number): boolean {
  if (column instanceof LazyStrings) return true;
  for (let i = 0; i < rows; i++) {
    const value = column[i];
    if (value != null && typeof value !== 'string') return false;
  }
  return true;
}
