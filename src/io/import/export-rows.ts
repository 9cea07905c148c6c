import { InputError } from '../../model/errors.js';
import { CsvTable, type CsvSource } from './csv-table.js';
import { readText } from '../files.js';
import { exportPieces } from './export-file.js';

/** One row of an export: its cells by column name, and where it is (for the drop report). */
export interface ExportRow {
  readonly cells: Readonly<Record<string, unknown>>;
  readonly where: string;
  /** Its place in the file, the order among rows of the same second. */
  readonly index: number;
}

/**
 * The rows of an export and the column names it has. Importers visit the rows in order
 * ({@link ExportTable.forEachRow}) and read them a column at a time ({@link ExportTable.column}):
 * a CSV row then costs no object of its own, and a CSV file is read a piece at a time.
 */
export interface ExportTable {
  readonly columns: ReadonlySet<string>;
  /** Calls `visit` with each row's number in file order (0 the first); a column reader reads the visited row. */
  forEachRow(visit: (row: number) => void): void;
  /**
   * A reader of one column: CSV cells as trimmed text ('' when a row is short), JSON values as they are; undefined for
   * a column the export lacks.
   */
  column(name: string): (row: number) => unknown;
  /** The first row's value in a column (as {@link column} reads it); undefined without rows or without the column. */
  first(name: string): unknown;
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
  const failed =
    o.success === false ||
    (o.error !== undefined && o.error !== null && o.data === undefined && o.result === undefined);
  if (!failed) return;
  const message = [o.message, o.error, o.msg].find((m) => m !== undefined && m !== null);
  const text = typeof message === 'string' ? message : JSON.stringify(message ?? o);
  throw new InputError(
    `${file}: the file is the provider's error answer, not data: ${text.slice(0, 200)}; fetch the data again`,
    { source: file },
  );
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
  const body = withoutMark(text);
  if (isJson(body)) return jsonTable(parseExportJson(body, file), file);
  return csvTable(body, body, file);
}

/**
 * Reads a tabular export file as {@link readExportTable} reads its text. A CSV is read a piece
 * at a time as the importer visits its rows (see {@link exportPieces}), never whole; JSON is
 * read whole, as it is parsed. `what` names the file in the message when it cannot be read.
 *
 * @example
 * const { tape } = importDune(readExportFile('trades.csv', 'trades.csv', 'dune'), 'trades.csv');
 */
export function readExportFile(path: string, file: string, what: string): ExportTable {
  const pieces = exportPieces(path, what);
  const head = withoutMark(pieces.next().value ?? '');
  pieces.return();
  if (isJson(head)) return jsonTable(parseExportJson(readText(path, what), file), file);
  return csvTable(head, () => marklessPieces(path, what), file);
}

function* marklessPieces(path: string, what: string): Generator<string, void, undefined> {
  let first = true;
  for (const piece of exportPieces(path, what)) {
    yield first ? withoutMark(piece) : piece;
    first = false;
  }
}

/** Text without a leading byte-order mark. */
function withoutMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function isJson(head: string): boolean {
  const first = head.trimStart()[0];
  return first === '{' || first === '[';
}

/** A CSV export whose text starts with `head`; its delimiter is sniffed from the header line. */
function csvTable(head: string, source: CsvSource, file: string): ExportTable {
  const newline = head.indexOf('\n');
  const delimiter = sniffDelimiter(newline < 0 ? head : head.slice(0, newline));
  const csv = new CsvTable(source, delimiter);
  if (csv.header.length === 0) throw new InputError(`${file}: the file is empty`, { source: file });
  return new CsvExportTable(csv, file);
}

/** A CSV export read column by column from its {@link CsvTable}. */
class CsvExportTable implements ExportTable {
  readonly columns: ReadonlySet<string>;
  /** Each column's place; a name written twice is its last place, as an object of the cells would have it. */
  private readonly places = new Map<string, number>();
  private rowObjects: ExportRow[] | undefined;

  constructor(
    private readonly csv: CsvTable,
    private readonly file: string,
  ) {
    csv.header.forEach((name, i) => this.places.set(name.trim(), i));
    this.columns = new Set(this.places.keys());
  }

  forEachRow(visit: (row: number) => void): void {
    this.csv.forEach(visit);
  }

  first(name: string): string | undefined {
    const place = this.places.get(name);
    const record = this.csv.firstRecord;
    return place === undefined || record === undefined ? undefined : (record[place] ?? '').trim();
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
      const rows: ExportRow[] = [];
      this.forEachRow((index) => {
        const cells: Record<string, unknown> = {};
        for (const [name, read] of readers) cells[name] = read(index);
        rows.push({ cells, where: this.where(index), index });
      });
      this.rowObjects = rows;
    }
    return this.rowObjects;
  }
}

/** A JSON export: its list of row objects. */
class JsonExportTable implements ExportTable {
  constructor(
    readonly rows: readonly ExportRow[],
    readonly columns: ReadonlySet<string>,
  ) {}

  forEachRow(visit: (row: number) => void): void {
    for (let row = 0; row < this.rows.length; row++) visit(row);
  }

  first(name: string): unknown {
    return this.rows[0]?.cells[name];
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
    : [
        (o.result as Record<string, unknown> | undefined)?.rows,
        o.rows,
        o.data,
        (o.data as Record<string, unknown> | undefined)?.rows,
      ].find(Array.isArray);
  if (!Array.isArray(list)) {
    throw new InputError(
      `${file}: expected a list of rows (or {"result": {"rows": [...]}})` +
        `, found an object with ${Object.keys(o).join(', ') || 'no keys'}`,
      { source: file },
    );
  }
  const columns = new Set<string>();
  const rows = list.map((cells, index) => {
    if (typeof cells !== 'object' || cells === null)
      throw new InputError(`${file}: row ${index} is not an object`, { source: file });
    for (const k of Object.keys(cells)) columns.add(k);
    return { cells: cells as Record<string, unknown>, where: `${file} row ${index}`, index };
  });
  return new JsonExportTable(rows, columns);
}

/** A cell as trimmed text ('' for missing and null). */
export function text(value: unknown): string {
  return value === undefined || value === null ? '' : String(value).trim();
}
