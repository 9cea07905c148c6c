import { grown } from '../../typed-arrays.js';
import { readQuotedRecord } from './csv-parse.js';

/** A CSV text, or a way to read it again in pieces that each end after a line break. */
export type CsvSource = string | (() => Iterable<string>);

/**
 * A CSV file read record by record, a piece of its text at a time: a cell becomes a string only
 * when an importer reads it, a record costs no object at all, and a file of any size is held
 * only a piece at a time (a string of the whole file would cost memory of its size, and V8's
 * strings end at 512 MB).
 *
 * The records are those {@link parseCsv} gives for the same text and delimiter: blank lines are
 * skipped, a record with quotes is read by the same RFC 4180 reader (one that goes on past the
 * end of a piece is read again with the next).
 */
export class CsvTable {
  /** The header's cells, as written. */
  readonly header: readonly string[];
  /** The first data record's cells, as written; undefined when there is none. */
  readonly firstRecord: readonly string[] | undefined;
  private readonly width: number;
  private readonly open: () => Iterable<string>;
  /** The line each record of the last pass starts on. */
  private lines = new Int32Array(1024);
  private records = 0;
  /** The piece being visited, its first record, and its records' cells (start at [2(r·width + c)], end after). */
  private text = '';
  private base = 0;
  private visited = 0;
  private bounds = new Int32Array(0);
  private quoted = new Map<number, readonly string[]>();

  constructor(
    source: CsvSource,
    private readonly delimiter: string,
  ) {
    this.open = typeof source === 'string' ? () => [source] : source;
    const [header, first] = this.firstTwo();
    this.header = header ?? [];
    this.firstRecord = first;
    this.width = this.header.length;
  }

  /** Data records read by the last {@link forEach} (the header excluded). */
  get size(): number {
    return this.records;
  }

  /**
   * Reads the file through, calling `visit` with each data record's number (0 the first after the
   * header). {@link cell} reads the visited record's cells; {@link line} any record's line.
   */
  forEach(visit: (record: number) => void): void {
    this.records = 0;
    let headerSeen = false;
    this.scan((text, records) => {
      this.text = text;
      let first = 0;
      if (!headerSeen && records.count > 0) {
        headerSeen = true;
        first = 1;
      }
      this.base = this.records;
      this.visited = records.count - first;
      this.layOut(text, records, first);
      for (let r = first; r < records.count; r++) {
        const record = this.records++;
        this.noteLine(record, records.line[r]!);
        visit(record);
      }
      return true;
    });
    this.text = '';
    this.visited = 0;
    this.quoted = new Map();
  }

  /** A cell of the visited record in a column, trimmed; '' when the record is short. */
  cell(record: number, column: number): string {
    const local = record - this.base;
    if (!(local >= 0 && local < this.visited))
      throw new Error(`CsvTable.cell: record ${record} is not the one being visited (read cells inside forEach)`);
    const quoted = this.quoted.size === 0 ? undefined : this.quoted.get(local);
    if (quoted !== undefined) return (quoted[column] ?? '').trim();
    const at = 2 * (local * this.width + column);
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

  /** The header and the first data record, reading no further than they are. */
  private firstTwo(): [string[] | undefined, string[] | undefined] {
    const found: string[][] = [];
    this.scan((text, records) => {
      for (let r = 0; r < records.count && found.length < 2; r++) {
        found.push([...(records.quoted.get(r) ?? splitLine(text, records.start[r]!, records.end[r]!, this.delimiter))]);
      }
      return found.length < 2;
    }, 2);
    return [found[0], found[1]];
  }

  /** Keeps a record's line, in a list grown as the records come. */
  private noteLine(record: number, line: number): void {
    if (record === this.lines.length) this.lines = grown(this.lines, record);
    this.lines[record] = line;
  }

  /** Finds the cells of a piece's records from `first` on. */
  private layOut(text: string, records: PieceRecords, first: number): void {
    const width = this.width;
    const needed = 2 * width * (records.count - first);
    if (this.bounds.length < needed) this.bounds = new Int32Array(Math.max(needed, 2 * this.bounds.length));
    const bounds = this.bounds;
    const sep = this.delimiter;
    this.quoted = new Map();
    for (let r = first; r < records.count; r++) {
      const local = r - first;
      const quoted = records.quoted.size === 0 ? undefined : records.quoted.get(r);
      if (quoted !== undefined) {
        this.quoted.set(local, quoted);
        continue;
      }
      const at = 2 * local * width;
      const bodyEnd = records.end[r]!;
      let start = records.start[r]!;
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

  /**
   * Reads the source's pieces and hands each one's records to `piece`, until it returns false. A
   * record with quotes that runs past a piece's end starts the next piece instead.
   */
  private scan(piece: (text: string, records: PieceRecords) => boolean, most = Infinity): void {
    let carried = '';
    let line = 1;
    const records = new PieceRecords();
    const hand = (text: string, last: boolean): boolean => {
      const scanned = scanPiece(text, this.delimiter, line, last, records, most);
      line = scanned.line;
      carried = text.slice(scanned.end);
      return piece(text, records);
    };
    for (const text of this.open()) {
      if (!hand(carried === '' ? text : carried + text, false)) return;
    }
    if (carried !== '') hand(carried, true);
  }
}

/**
 * The records of a piece, by number: each one's line, and the body of its line to split
 * (`start`, `end`), or the cells of a record with quotes. Reused piece after piece.
 */
class PieceRecords {
  count = 0;
  line = new Int32Array(1024);
  start = new Int32Array(1024);
  end = new Int32Array(1024);
  quoted = new Map<number, readonly string[]>();

  clear(): void {
    this.count = 0;
    if (this.quoted.size > 0) this.quoted = new Map();
  }

  add(line: number, start: number, end: number, quoted?: readonly string[]): void {
    if (this.count === this.line.length) {
      this.line = grown(this.line, this.count);
      this.start = grown(this.start, this.count);
      this.end = grown(this.end, this.count);
    }
    this.line[this.count] = line;
    this.start[this.count] = start;
    this.end[this.count] = end;
    if (quoted !== undefined) this.quoted.set(this.count, quoted);
    this.count++;
  }
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

function splitLine(text: string, start: number, end: number, sep: string): string[] {
  return text.slice(start, end).split(sep);
}

/**
 * Finds the records of a piece, from its first line on, up to `most` of them; `end` is where
 * the last one found ends (a record with quotes not closed before the piece's end is left to
 * the next piece, unless this is the `last`).
 */
function scanPiece(
  text: string,
  sep: string,
  firstLine: number,
  last: boolean,
  records: PieceRecords,
  most: number,
): { end: number; line: number } {
  records.clear();
  let pos = 0;
  let line = firstLine;
  // The next quote and carriage return at or after `pos`, found once and reused line by line.
  let nextQuote = text.indexOf('"');
  let nextReturn = text.indexOf('\r');
  while (pos < text.length && records.count < most) {
    const newline = text.indexOf('\n', pos);
    const end = newline < 0 ? text.length : newline;
    if (nextQuote >= 0 && nextQuote < pos) nextQuote = text.indexOf('"', pos);
    if (nextReturn >= 0 && nextReturn < pos) nextReturn = text.indexOf('\r', pos);
    // A line whose only carriage return ends it is split as it is, without it.
    const bodyEnd = end > pos && text.charCodeAt(end - 1) === RETURN ? end - 1 : end;
    const hasQuote = nextQuote >= 0 && nextQuote < bodyEnd;
    const hasReturn = nextReturn >= 0 && nextReturn < bodyEnd;
    if (!hasQuote && !hasReturn) {
      if (!blank(text, pos, bodyEnd)) records.add(line, pos, bodyEnd);
      pos = end + 1;
      line++;
      continue;
    }
    const record = readQuotedRecord(text, pos, sep);
    if (!record.complete && !last) break;
    if (record.cells.length > 1 || record.cells[0]!.trim() !== '') records.add(line, pos, record.next, record.cells);
    pos = record.next;
    line += record.lines;
  }
  return { end: Math.min(pos, text.length), line };
}
