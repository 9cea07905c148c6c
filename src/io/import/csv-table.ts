import { readQuotedRecord } from './csv-parse.js';

/**
 * A CSV file held as its text and the offsets of its cells: a cell becomes a string only when
 * an importer reads it, and a row costs no object at all (an array of strings a row makes the
 * garbage collector the largest cost of importing a large export).
 *
 * The records are those {@link parseCsv} gives for the same text and delimiter: blank lines are
 * skipped, a record with quotes is read by the same RFC 4180 reader.
 */
export class CsvTable {
  /** Data records (the header excluded). */
  readonly size: number;
  /** The header's cells, as written. */
  readonly header: readonly string[];
  private readonly width: number;
  /** For record r and column c: the cell's start at [2(r·width + c)], its end after it. */
  private readonly bounds: Int32Array;
  private readonly lines: Int32Array;
  /** Cells of records that have quotes, unescaped, by record. */
  private readonly quoted: Map<number, readonly string[]>;

  constructor(private readonly text: string, delimiter: string) {
    const parsed = scanRecords(text, delimiter);
    this.header = parsed.header;
    this.width = parsed.header.length;
    this.size = parsed.size;
    this.bounds = parsed.bounds;
    this.lines = parsed.lines;
    this.quoted = parsed.quoted;
  }

  /** The cell of a record (0 the first after the header) in a column, trimmed; '' when the record is short. */
  cell(record: number, column: number): string {
    const quoted = this.quoted.size === 0 ? undefined : this.quoted.get(record);
    if (quoted !== undefined) return (quoted[column] ?? '').trim();
    const at = 2 * (record * this.width + column);
    const start = this.bounds[at]!;
    const end = this.bounds[at + 1]!;
    if (start === end) return '';
    // Most cells need no trimming: test the ends before making a second string.
    const text = this.text;
    if (solid(text.charCodeAt(start)) && solid(text.charCodeAt(end - 1))) return text.slice(start, end);
    return text.slice(start, end).trim();
  }

  /** The line a record starts on (1-based). */
  line(record: number): number {
    return this.lines[record]!;
  }
}

interface ScannedRecords {
  header: string[];
  size: number;
  bounds: Int32Array;
  lines: Int32Array;
  quoted: Map<number, readonly string[]>;
}

const RETURN = 13;

/** A character no trimming removes: printable ASCII (other characters are left to `trim`). */
function solid(code: number): boolean {
  return code > 32 && code < 127;
}

/** True when text[start, end) holds only whitespace (a blank line). */
function blank(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (solid(text.charCodeAt(i))) return false;
  return text.slice(start, end).trim() === '';
}

function countLines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** Finds every record's cells in one pass; records with quotes go to the RFC 4180 reader. */
function scanRecords(text: string, sep: string): ScannedRecords {
  let header: string[] | null = null;
  let width = 0;
  let bounds = new Int32Array(0);
  // Each record starts on a line of its own: room for every line is room for every record.
  const lines = new Int32Array(countLines(text) + 1);
  const quoted = new Map<number, readonly string[]>();
  let size = 0;
  let pos = 0;
  let line = 1;
  // The next quote and carriage return at or after `pos`, found once and reused line by line.
  let nextQuote = text.indexOf('"');
  let nextReturn = text.indexOf('\r');
  const addRecord = (lineOfRecord: number): number => {
    lines[size] = lineOfRecord;
    return size++;
  };
  while (pos < text.length) {
    const newline = text.indexOf('\n', pos);
    const end = newline < 0 ? text.length : newline;
    if (nextQuote >= 0 && nextQuote < pos) nextQuote = text.indexOf('"', pos);
    if (nextReturn >= 0 && nextReturn < pos) nextReturn = text.indexOf('\r', pos);
    // A line whose only carriage return ends it is split as it is, without it.
    const bodyEnd = end > pos && text.charCodeAt(end - 1) === RETURN ? end - 1 : end;
    const hasQuote = nextQuote >= 0 && nextQuote < bodyEnd;
    const hasReturn = nextReturn >= 0 && nextReturn < bodyEnd;
    if (!hasQuote && !hasReturn) {
      if (!blank(text, pos, bodyEnd)) {
        if (header === null) {
          header = text.slice(pos, bodyEnd).split(sep);
          width = header.length;
          bounds = new Int32Array(lines.length * 2 * width);
        } else {
          const at = 2 * addRecord(line) * width;
          let start = pos;
          for (let c = 0; c < width; c++) {
            if (start > bodyEnd) {
              // A short record: its missing cells are empty.
              bounds[at + 2 * c] = bodyEnd;
              bounds[at + 2 * c + 1] = bodyEnd;
              continue;
            }
            let stop = text.indexOf(sep, start);
            if (stop < 0 || stop > bodyEnd) stop = bodyEnd;
            bounds[at + 2 * c] = start;
            bounds[at + 2 * c + 1] = stop;
            start = stop + sep.length;
          }
        }
      }
      pos = end + 1;
      line++;
      continue;
    }
    const record = readQuotedRecord(text, pos, sep);
    if (record.cells.length > 1 || record.cells[0]!.trim() !== '') {
      if (header === null) {
        header = record.cells;
        width = header.length;
        bounds = new Int32Array(lines.length * 2 * width);
      } else quoted.set(addRecord(line), record.cells);
    }
    pos = record.next;
    line += record.lines;
  }
  return { header: header ?? [], size, bounds, lines, quoted };
}
