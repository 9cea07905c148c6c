import { InputError } from '../../model/errors.js';
import { CsvTable } from './csv-table.js';

/** One row of an export: its cells by column name, and where it is (for the drop report). */
export interface ExportRow {
  readonly cells: Readonly<Record<string, unknown>>;
  readonly where: string;
  /** Its place in the file, the order among rows of the same second. */
  readonly index: number;
}

/**
 * The rows of an export and the column names it has. Importers read it a column at a time
 * ({@link ExportTable.column}): a CSV row then costs no object of its own.
 */
export interface ExportTable {
  readonly columns: ReadonlySet<string>;
  /** How many rows. */
  readonly size: number;
  /** A reader of one column: CSV cells as trimmed text ('' when a row is short), JSON values as they are; undefined for a column the export lacks. */
  column(name: string): (row: number) => unknown;
  /** Where a row is, for the drop report. */
  where(row: number): string;
  /** Every row as an object of its cells by column name. */
  readonly rows: readonly ExportRow[];
}

const DELIMITERS = [',', ';', '\t', '|'] as const;

/** The delimiter of a CSV header line: the most frequent of comma, semicolon, tab and bar. */
export function sniffDelimiter(headerLine: string): string {
  let best: string = ',';
  let most = 0;
  for (const d of DELIMITERS) {
    const n = headerLine.split(d).length - 1;
    if (n > most) [best, most] = [d, n];
  }
  return best;
}

/**
 * Throws when a parsed JSON export is a provider's error answer instead of data:
 * `{"success": false, "message": …}` (Birdeye), `{"error": …}` (Dune, Helius, Flipside).
 */
export function rejectErrorResponse(json: unknown, file: string): void {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return;
  const o = json as Record<string, unknown>;
  const failed = o.success === false || (o.error !== undefined && o.error !== null && o.data === undefined && o.result === undefined);
  if (!failed) return;
  const message = [o.message, o.error, o.msg].find((m) => m !== undefined && m !== null);
  const text = typeof message === 'string' ? message : JSON.stringify(message ?? o);
  throw new InputError(`${file}: the file is the provider's error answer, not data: ${text.slice(0, 200)}; fetch the data again`, { source: file });
}

/** Parses JSON text, naming the file on a syntax error. */
export function parseExportJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    throw new InputError(`${file}: not valid JSON: ${(e as Error).message}`, { source: file });
  }
}

/**
 * Reads a tabular export: CSV (header first; a byte-order mark is skipped; the delimiter is
 * sniffed from the header; header names and cells are trimmed, as some exports pad them) or
 * JSON (a list of row objects, Dune's API answer `{"result": {"rows": [...]}}`, or `{"rows"}` /
 * `{"data"}` around a list). A provider's error answer is an {@link InputError} naming the file.
 *
 * @example
 * readExportTable('block_time,taker\n2024-03-10 10:00:00.000 UTC,Abc\n', 'dune.csv').rows[0].cells.taker; // 'Abc'
 */
export function readExportTable(text: string, file: string): ExportTable {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const first = body.trimStart()[0];
  if (first === '{' || first === '[') return jsonTable(parseExportJson(body, file), file);
  const newline = body.indexOf('\n');
  const delimiter = sniffDelimiter(newline < 0 ? body : body.slice(0, newline));
  const csv = new CsvTable(body, delimiter);
  if (csv.header.length === 0) throw new InputError(`${file}: the file is empty`, { source: file });
  return new CsvExportTable(csv, file);
}

/** A CSV export read column by column from its {@link CsvTable}. */
class CsvExportTable implements ExportTable {
  readonly columns: ReadonlySet<string>;
  readonly size: number;
  /** Each column's place; a name written twice is its last place, as an object of the cells would have it. */
  private readonly places = new Map<string, number>();
  private rowObjects: ExportRow[] | undefined;

  constructor(
    private readonly csv: CsvTable,
    private readonly file: string,
  ) {
    csv.header.forEach((name, i) => this.places.set(name.trim(), i));
    this.columns = new Set(this.places.keys());
    this.size = csv.size;
  }

  column(name: string): (row: number) => string | undefined {
    const place = this.places.get(name);
    if (place === undefined) return () => undefined;
    const csv = this.csv;
    return (row) => csv.cell(row, place);
  }

  where(row: number): string {
    return `${this.file} line ${this.csv.line(row)}`;
  }

  get rows(): readonly ExportRow[] {
    if (this.rowObjects === undefined) {
      const readers = [...this.places.keys()].map((name) => [name, this.column(name)] as const);
      this.rowObjects = Array.from({ length: this.size }, (_, index) => {
        const cells: Record<string, unknown> = {};
        for (const [name, read] of readers) cells[name] = read(index);
        return { cells, where: this.where(index), index };
      });
    }
    return this.rowObjects;
  }
}

/** A JSON export: its list of row objects. */
class JsonExportTable implements ExportTable {
  readonly size: number;

  constructor(
    readonly rows: readonly ExportRow[],
    readonly columns: ReadonlySet<string>,
  ) {
    this.size = rows.length;
  }

  column(name: string): (row: number) => unknown {
    const rows = this.rows;
    return (row) => rows[row]!.cells[name];
  }

  where(row: number): string {
    return this.rows[row]!.where;
  }
}

function jsonTable(json: unknown, file: string): ExportTable {
  rejectErrorResponse(json, file);
  const o = json as Record<string, unknown>;
  const list = Array.isArray(json)
    ? json
    : [(o.result as Record<string, unknown> | undefined)?.rows, o.rows, o.data, (o.data as Record<string, unknown> | undefined)?.rows].find(Array.isArray);
  if (!Array.isArray(list)) {
    throw new InputError(`${file}: expected a list of rows (or {"result": {"rows": [...]}}), found an object with ${Object.keys(o).join(', ') || 'no keys'}`, { source: file });
  }
  const columns = new Set<string>();
  const rows = list.map((cells, index) => {
    if (typeof cells !== 'object' || cells === null) throw new InputError(`${file}: row ${index} is not an object`, { source: file });
    for (const k of Object.keys(cells)) columns.add(k);
    return { cells: cells as Record<string, unknown>, where: `${file} row ${index}`, index };
  });
  return new JsonExportTable(rows, columns);
}

/** A cell as trimmed text ('' for missing and null). */
export function text(value: unknown): string {
  return value === undefined || value === null ? '' : String(value).trim();
}
