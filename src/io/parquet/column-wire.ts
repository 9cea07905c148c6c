import { LazyStrings } from './fast-strings.js';
import { NULLS_COLUMN } from './format.js';
import type { Column, FileColumn, ReadableColumns, RowGroupColumns } from './row-group.js';

/**
 * A string column whose values repeat (wallets, tokens, sides): each row's number in a table of
 * the distinct strings. Sent between threads as the numbers and the strings new to the table,
 * not as a string a row: a row group's quarter of a million wallet strings, cloned, would each
 * be made again on the receiving side.
 */
export class TableStrings {
  constructor(
    /** The distinct strings, shared by every row group of a file (it grows as groups arrive). */
    readonly table: readonly string[],
    /** Each row's string's place in `table`; -1 for a missing value. */
    readonly ids: Int32Array,
  ) {}

  get length(): number {
    return this.ids.length;
  }

  at(i: number): string | undefined {
    const id = this.ids[i]!;
    return id < 0 ? undefined : this.table[id];
  }
}

/** A number-form decimal column received as doubles: NaN stands for a missing value. */
export class Doubles {
  constructor(private readonly values: Float64Array) {}

  get length(): number {
    return this.values.length;
  }

  at(i: number): number | undefined {
    const value = this.values[i]!;
    return value === value ? value : undefined;
  }

  /** The doubles, to send them to another thread. */
  get doubles(): Float64Array {
    return this.values;
  }
}

/** A column as it crosses to another thread. */
type WireColumn =
  | { readonly kind: 'lazy'; readonly text: string; readonly starts: Int32Array; readonly ends: Int32Array }
  | { readonly kind: 'table'; readonly ids: Int32Array; readonly added: readonly string[] }
  | { readonly kind: 'masks'; readonly masks: Uint8Array }
  | { readonly kind: 'numbers'; readonly numbers: Float64Array }
  | { readonly kind: 'missing'; readonly length: number }
  | { readonly kind: 'values'; readonly values: ArrayLike<unknown> };

/** A row group's columns as a sender takes them: as decoded, or a number-form decimal already as doubles. */
export type SentColumns = Record<keyof RowGroupColumns, FileColumn | Doubles>;

/** A row group's columns as they cross to another thread (see {@link ColumnsSender}). */
export type WireColumns = Record<string, WireColumn>;

/** Whether every value of a plain array is a string or missing: a column for a {@link TableStrings}. */
function isStringColumn(values: ArrayLike<unknown>): boolean {
  if (!Array.isArray(values)) return false;
  for (let i = 0; i < values.length; i++) {
    const value: unknown = values[i];
    if (typeof value !== 'string' && value !== undefined && value !== null) return false;
  }
  return values.some((value) => typeof value === 'string');
}

/** Whether a column has no value at all (a column left unread, or all null). */
function isAllMissing(values: ArrayLike<unknown>): boolean {
  if (!Array.isArray(values)) return false;
  for (let i = 0; i < values.length; i++) if (values[i] != null) return false;
  return true;
}

/** The buffer a typed array can hand over whole (it views all of it), or null. */
function wholeBuffer(values: ArrayLike<unknown>): ArrayBuffer | null {
  if (!ArrayBuffer.isView(values)) return null;
  const { buffer, byteOffset, byteLength } = values;
  return buffer instanceof ArrayBuffer && byteOffset === 0 && byteLength === buffer.byteLength ? buffer : null;
}

/**
 * The sending side: turns decoded row groups into {@link WireColumns} and the buffers to
 * transfer with them, keeping each string column's table so that a string already sent is sent
 * as its number only. A null and a missing value both arrive as missing (`undefined`), as the
 * readers of a row group take them.
 */
export class ColumnsSender {
  private readonly tables = new Map<string, Map<string, number>>();

  /** @param numbers the decimal columns whose values were JSON numbers: sent as doubles, made here. */
  constructor(private readonly numbers: ReadonlySet<string> = new Set()) {}

  wire(columns: SentColumns): { readonly columns: WireColumns; readonly transfer: ArrayBuffer[] } {
    const out: WireColumns = {};
    const transfer: ArrayBuffer[] = [];
    for (const [name, column] of Object.entries(columns) as [string, FileColumn | Doubles][]) {
      if (column instanceof Doubles) {
        out[name] = { kind: 'numbers', numbers: column.doubles };
        transfer.push(column.doubles.buffer as ArrayBuffer);
      } else if (column instanceof LazyStrings && this.numbers.has(name)) {
        // A number-form decimal as the reader makes it (`Number` of its text), NaN where missing.
        const numbers = new Float64Array(column.length);
        for (let i = 0; i < numbers.length; i++) {
          const text = column.at(i);
          numbers[i] = text === undefined ? Number.NaN : Number(text);
        }
        out[name] = { kind: 'numbers', numbers };
        transfer.push(numbers.buffer);
      } else if (column instanceof LazyStrings) {
        const { text, starts, ends } = column.parts();
        out[name] = { kind: 'lazy', text, starts, ends };
        transfer.push(starts.buffer as ArrayBuffer, ends.buffer as ArrayBuffer);
      } else if (name === NULLS_COLUMN) {
        // Bit masks, a missing one none set: bytes, not a cloned array of numbers.
        const masks = Uint8Array.from(column as ArrayLike<number | undefined>, (mask) => mask ?? 0);
        out[name] = { kind: 'masks', masks };
        transfer.push(masks.buffer);
      } else if (isAllMissing(column)) {
        out[name] = { kind: 'missing', length: column.length };
      } else if (isStringColumn(column)) {
        out[name] = this.table(name, column as ArrayLike<string | null | undefined>);
        transfer.push((out[name] as { ids: Int32Array }).ids.buffer as ArrayBuffer);
      } else {
        out[name] = { kind: 'values', values: column };
        const buffer = wholeBuffer(column);
        if (buffer !== null) transfer.push(buffer);
      }
    }
    return { columns: out, transfer };
  }

  private table(name: string, values: ArrayLike<string | null | undefined>): WireColumn {
    let table = this.tables.get(name);
    if (table === undefined) this.tables.set(name, (table = new Map()));
    const ids = new Int32Array(values.length);
    const added: string[] = [];
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      if (typeof value !== 'string') {
        ids[i] = -1;
        continue;
      }
      let id = table.get(value);
      if (id === undefined) {
        id = table.size;
        table.set(value, id);
        added.push(value);
      }
      ids[i] = id;
    }
    return { kind: 'table', ids, added };
  }
}

/** The receiving side: the columns again, each string column's table grown by what arrives. */
export class ColumnsReceiver {
  private readonly tables = new Map<string, string[]>();

  columns(wire: WireColumns): ReadableColumns {
    const out: Record<string, Column> = {};
    for (const [name, column] of Object.entries(wire)) {
      if (column.kind === 'lazy') {
        out[name] = new LazyStrings(column.text, column.starts, column.ends);
      } else if (column.kind === 'numbers') {
        out[name] = new Doubles(column.numbers);
      } else if (column.kind === 'masks') {
        out[name] = column.masks;
      } else if (column.kind === 'missing') {
        out[name] = new Array<undefined>(column.length);
      } else if (column.kind === 'table') {
        let table = this.tables.get(name);
        if (table === undefined) this.tables.set(name, (table = []));
        for (const value of column.added) table.push(value);
        out[name] = new TableStrings(table, column.ids);
      } else {
        out[name] = column.values;
      }
    }
    return out as ReadableColumns;
  }
}
