/** One record of a CSV file: its cells and the line it starts on (1-based). */
export interface CsvRecord {
  readonly cells: readonly string[];
  readonly line: number;
}

/**
 * Splits CSV text into records (RFC 4180: quoted cells may hold the delimiter, quotes doubled,
 * and line breaks). Blank lines are skipped. The delimiter defaults to a comma, or a tab when
 * the first line has tabs and no comma.
 *
 * @example
 * parseCsv('a,b\n1,"x, y"\n'); // [{ cells: ['a', 'b'], line: 1 }, { cells: ['1', 'x, y'], line: 2 }]
 */
export function parseCsv(text: string, delimiter?: string): CsvRecord[] {
  const firstLine = text.slice(0, text.indexOf('\n') >= 0 ? text.indexOf('\n') : text.length);
  const sep = delimiter ?? (firstLine.includes('\t') && !firstLine.includes(',') ? '\t' : ',');
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  const endRecord = (): void => {
    cells.push(cell);
    if (cells.length > 1 || cells[0]!.trim() !== '') records.push({ cells, line: start });
    cells = [];
    cell = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        cell += c;
      }
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === sep) {
      cells.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      start = line;
    } else cell += c;
  }
  if (cell !== '' || cells.length > 0) endRecord();
  return records;
}
