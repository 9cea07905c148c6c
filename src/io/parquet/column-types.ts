/**
 * The Parquet types a tape column may have, and how their values become the tape's. copysim's
 * own writer gives each column one type (format.ts); files of other writers (DuckDB,
 * pandas/pyarrow, arrow-rs, hyparquet-writer) give decimals as DOUBLE, FLOAT, integers or
 * DECIMAL, times as TIMESTAMP or DATE. Each such column is converted a column chunk at a time,
 * after decoding: a column of copysim's own type is read as before, with no conversion.
 */
import type { SchemaElement } from 'hyparquet';
import { DECIMAL_COLUMNS, type SwapColumn } from './format.js';

/** How a column chunk's decoded values become the tape's (strings, numbers, seconds). */
export type ColumnConversion = (values: ArrayLike<unknown>) => unknown[];

/** How one column of a file is read. */
export interface ColumnReading {
  /** The element hyparquet decodes with: annotations taken off where the conversion reads the raw values. */
  readonly element: SchemaElement;
  /** Null for copysim's own type: the values are the tape's as decoded, and the fast decoders may read them. */
  readonly convert: ColumnConversion | null;
  /** False: bytes stay bytes (a DECIMAL in BYTE_ARRAY), not text. */
  readonly utf8?: false;
}

/** The type of a column as an error names it: `INT64 (TIMESTAMP(MICROS))`, `FIXED_LEN_BYTE_ARRAY (DECIMAL(38,10))`. */
export function typeName(element: SchemaElement): string {
  const physical = element.type ?? 'a group (nested columns)';
  const logical = element.logical_type;
  let annotation: string | undefined = element.converted_type;
  if (logical?.type === 'DECIMAL') annotation = `DECIMAL(${logical.precision},${logical.scale})`;
  else if (logical?.type === 'TIMESTAMP' || logical?.type === 'TIME') annotation = `${logical.type}(${logical.unit})`;
  else if (logical?.type === 'INTEGER') annotation = `${logical.isSigned ? 'INT' : 'UINT'}(${logical.bitWidth})`;
  else if (logical !== undefined) annotation = logical.type;
  else if (annotation === 'DECIMAL') annotation = `DECIMAL(${element.precision ?? '?'},${element.scale ?? 0})`;
  return annotation === undefined ? physical : `${physical} (${annotation})`;
}

/** What each kind of column accepts and how to cast `column` to it, for the error of a column of another type. */
const ACCEPTED = {
  text: (column: string) =>
    'expected text (BYTE_ARRAY: plain, UTF8, STRING or ENUM): cast it to a string' +
    ` (DuckDB: CAST(${column} AS VARCHAR), pandas: df["${column}"].astype(str))`,
  time: (column: string) =>
    'expected a time: whole seconds since the epoch (INT64, INT32 or DOUBLE), a TIMESTAMP (millis, micros' +
    ` or nanos) or a DATE: cast it (DuckDB: CAST(${column} AS TIMESTAMP), or` +
    ` epoch(${column}) for seconds)`,
  decimal: (column: string) =>
    'expected a decimal: DOUBLE, FLOAT, INT32, INT64, DECIMAL (on INT32, INT64, FIXED_LEN_BYTE_ARRAY or' +
    ` BYTE_ARRAY) or decimal text (BYTE_ARRAY): cast it (DuckDB: CAST(${column} AS DECIMAL(38,18))` +
    ' keeps every digit)',
} as const;

/**
 * How `column` of the file, of schema `element`, is read; a string saying what is wrong when its
 * type is not one a tape column may have.
 */
export function columnReading(column: SwapColumn, element: SchemaElement): ColumnReading | string {
  const kind =
    column === 'time' ? 'time' : (DECIMAL_COLUMNS as readonly string[]).includes(column) ? 'decimal' : 'text';
  const reading =
    element.type === undefined || element.num_children !== undefined
      ? null
      : kind === 'text'
        ? textReading(element)
        : kind === 'time'
          ? timeReading(element)
          : decimalReading(element);
  return reading ?? `column "${column}" is ${typeName(element)}, ${ACCEPTED[kind](column)}`;
}

/** Logical types of a BYTE_ARRAY that hold text. */
function isText(element: SchemaElement): boolean {
  const logical = element.logical_type?.type;
  const converted = element.converted_type;
  return (
    element.type === 'BYTE_ARRAY' &&
    (logical === undefined || logical === 'STRING' || logical === 'ENUM') &&
    (converted === undefined || converted === 'UTF8' || converted === 'ENUM')
  );
}

function textReading(element: SchemaElement): ColumnReading | null {
  return isText(element) ? { element, convert: null } : null;
}

/** An integer of any annotation hyparquet turns into a number or a BigInt exactly (signed or unsigned). */
function isInteger(element: SchemaElement): boolean {
  const logical = element.logical_type;
  const converted = element.converted_type;
  return (
    (element.type === 'INT32' || element.type === 'INT64') &&
    (logical === undefined || logical.type === 'INTEGER') &&
    (converted === undefined || /^U?INT_(8|16|32|64)$/.test(converted))
  );
}

/** The element without its annotations: hyparquet then gives the stored integers or bytes as they are. */
function raw(element: SchemaElement): SchemaElement {
  const { converted_type: _converted, logical_type: _logical, ...bare } = element;
  return bare;
}

function timeReading(element: SchemaElement): ColumnReading | null {
  if (element.type === 'DOUBLE' || isInteger(element)) return { element, convert: null };
  const logical = element.logical_type;
  const converted = element.converted_type;
  if (element.type === 'INT32' && (logical?.type === 'DATE' || converted === 'DATE'))
    return { element: raw(element), convert: (values) => convertEach(values, (v) => (v as number) * 86_400) };
  if (element.type !== 'INT64') return null;
  const unit =
    logical?.type === 'TIMESTAMP'
      ? logical.unit
      : converted === 'TIMESTAMP_MILLIS'
        ? 'MILLIS'
        : converted === 'TIMESTAMP_MICROS'
          ? 'MICROS'
          : null;
  if (unit === null) return null;
  const perSecond = unit === 'MILLIS' ? 1_000n : unit === 'MICROS' ? 1_000_000n : 1_000_000_000n;
  return {
    element: raw(element),
    convert: (values) => convertEach(values, (v) => floorDivide(v as bigint, perSecond)),
  };
}

/**
 * Whole seconds of a time in `perSecond` units, rounded down: a swap's time is whole seconds
 * (block times are), so a sub-second part is dropped.
 */
function floorDivide(value: bigint, perSecond: bigint): number {
  const quotient = value / perSecond;
  return Number(value % perSecond < 0n ? quotient - 1n : quotient);
}

function decimalReading(element: SchemaElement): ColumnReading | null {
  if (isText(element) || element.type === 'DOUBLE') return { element, convert: null };
  if (element.type === 'FLOAT') return { element, convert: (values) => convertEach(values, shortestFloat32) };
  const logical = element.logical_type;
  if (logical?.type === 'DECIMAL' || (logical === undefined && element.converted_type === 'DECIMAL')) {
    const scale = logical?.type === 'DECIMAL' ? logical.scale : (element.scale ?? 0);
    if (element.type === 'INT32' || element.type === 'INT64') {
      const convert: ColumnConversion = (values) => convertEach(values, (v) => scaledText(BigInt(v as number), scale));
      return { element: raw(element), convert };
    }
    if (element.type === 'FIXED_LEN_BYTE_ARRAY' || element.type === 'BYTE_ARRAY') {
      const convert: ColumnConversion = (values) =>
        convertEach(values, (v) => scaledText(signedBigEndian(v as Uint8Array), scale));
      return { element: raw(element), convert, utf8: false };
    }
    return null;
  }
  if (isInteger(element)) return { element, convert: (values) => convertEach(values, integerValue) };
  return null;
}

/** Each present value converted; a missing one (null or undefined) stays missing. */
function convertEach(values: ArrayLike<unknown>, convert: (value: unknown) => unknown): unknown[] {
  const out = new Array<unknown>(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    out[i] = value == null ? undefined : convert(value);
  }
  return out;
}

/** An integer as the tape holds it: a JSON number while exact, else its decimal text. */
function integerValue(value: unknown): number | string {
  if (typeof value !== 'bigint') return value as number;
  return value >= -9_007_199_254_740_991n && value <= 9_007_199_254_740_991n ? Number(value) : String(value);
}

/**
 * The decimal text of `unscaled` × 10^-scale, exact, without trailing zeros after the point
 * (12345, 2 → "123.45"; 1500, 3 → "1.5"; 5, 3 → "0.005").
 */
export function scaledText(unscaled: bigint, scale: number): string {
  const negative = unscaled < 0n;
  let digits = String(negative ? -unscaled : unscaled);
  if (scale < 0) {
    if (digits !== '0') digits += '0'.repeat(-scale);
  } else if (scale > 0) {
    digits = digits.padStart(scale + 1, '0');
    const whole = digits.slice(0, -scale);
    let end = digits.length;
    while (end > whole.length && digits.charCodeAt(end - 1) === 48) end--; // trailing '0's
    digits = end === whole.length ? whole : `${whole}.${digits.slice(whole.length, end)}`;
  }
  return negative ? `-${digits}` : digits;
}

/** A big-endian two's complement integer (Parquet's DECIMAL in bytes), six bytes at a time. */
export function signedBigEndian(bytes: Uint8Array): bigint {
  let value = 0n;
  let i = 0;
  while (i < bytes.length) {
    const take = Math.min(6, bytes.length - i);
    let chunk = 0;
    for (let k = 0; k < take; k++) chunk = chunk * 256 + bytes[i + k]!;
    value = (value << BigInt(8 * take)) + BigInt(chunk);
    i += take;
  }
  if (bytes.length > 0 && bytes[0]! & 0x80) value -= 1n << BigInt(8 * bytes.length);
  return value;
}

/**
 * A FLOAT as the decimal its writer meant: the shortest that reads back as the same float32
 * (0.1f, stored as 0.100000001490116…, is 0.1), as a JSON number.
 */
export function shortestFloat32(value: unknown): number {
  const float = value as number;
  if (!Number.isFinite(float) || float === 0) return float;
  for (let digits = 1; digits < 9; digits++) {
    const shorter = Number(float.toPrecision(digits));
    if (Math.fround(shorter) === float) return shorter;
  }
  return Number(float.toPrecision(9));
}
