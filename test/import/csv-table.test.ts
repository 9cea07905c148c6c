import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/io/import/csv-parse.js';
import { CsvTable } from '../../src/io/import/csv-table.js';
import { readExportTable } from '../../src/io/import/export-rows.js';

/** The cells and lines a CsvTable gives, as parseCsv's records (cells trimmed, short rows padded). */
function tableRecords(text: string, delimiter: string): Array<{ cells: string[]; line: number }> {
  const table = new CsvTable(text, delimiter);
  const rows = [];
  for (let r = 0; r < table.size; r++) rows.push({ cells: table.header.map((_, c) => table.cell(r, c)), line: table.line(r) });
  return rows;
}

function parsedRecords(text: string, delimiter: string): Array<{ cells: string[]; line: number }> {
  const [header, ...records] = parseCsv(text, delimiter);
  return records.map((r) => ({ cells: header!.cells.map((_, c) => (r.cells[c] ?? '').trim()), line: r.line }));
}

describe('CsvTable: a CSV text read by cell offsets', () => {
  it('reads cells, short rows, quotes, blank lines and CRLF as parseCsv does', () => {
    const text = 'a,b,c\r\n1, two ,3\r\n\r\n4,"x, ""y""\nz"\n5\n  \n6,7,8,9\n';
    const table = new CsvTable(text, ',');
    expect(table.header).toEqual(['a', 'b', 'c']);
    expect(tableRecords(text, ',')).toEqual([
      { cells: ['1', 'two', '3'], line: 2 },
      { cells: ['4', 'x, "y"\nz', ''], line: 4 },
      { cells: ['5', '', ''], line: 6 },
      { cells: ['6', '7', '8'], line: 8 },
    ]);
    expect(tableRecords(text, ',')).toEqual(parsedRecords(text, ','));
  });

  it('agrees with parseCsv on generated texts', () => {
    const cell = fc.oneof(
      fc.constantFrom('', ' ', 'abc', ' 1.5 ', '\u00a0x\u00a0', 'So1111', '2024-03-01 00:02:22.000 UTC'),
      fc.string({ maxLength: 6 }).map((s) => s.replace(/[\r\n",;]/g, '')),
      fc.string({ maxLength: 6 }).map((s) => `"${s.replace(/"/g, '""')}"`),
    );
    const line = fc.array(cell, { minLength: 1, maxLength: 5 });
    const text = fc
      .tuple(fc.array(line, { minLength: 1, maxLength: 8 }), fc.constantFrom('\n', '\r\n'), fc.constantFrom(',', ';'), fc.boolean())
      .map(([lines, eol, sep, blank]) => ({ text: lines.map((l) => l.join(sep)).join(blank ? `${eol}${eol}` : eol), sep }));
    fc.assert(
      fc.property(text, ({ text, sep }) => {
        if (parseCsv(text, sep).length === 0) return true;
        expect(tableRecords(text, sep)).toEqual(parsedRecords(text, sep));
        return true;
      }),
      { numRuns: 2000 },
    );
  });

  it('names the file of an empty export, and reads rows by column name', () => {
    expect(() => readExportTable('\n\n', 'empty.csv')).toThrow(/empty.csv: the file is empty/);
    const table = readExportTable('block_time , taker\n2024-03-10 10:00:00.000 UTC, Abc \n', 'dune.csv');
    expect(table.rows[0]!.cells.taker).toBe('Abc');
    expect(table.column('taker')(0)).toBe('Abc');
    expect(table.column('missing')(0)).toBeUndefined();
    expect(table.where(0)).toBe('dune.csv line 2');
  });
});
