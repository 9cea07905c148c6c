import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/io/import/csv-parse.js';
import { CsvTable, type CsvSource } from '../../src/io/import/csv-table.js';
import { readText } from '../../src/io/files.js';
import { exportPieces } from '../../src/io/import/export-file.js';
import { readExportFile, readExportTable } from '../../src/io/import/export-rows.js';

/** The cells and lines a CsvTable gives, as parseCsv's records (cells trimmed, short rows padded). */
function tableRecords(source: CsvSource, delimiter: string): Array<{ cells: string[]; line: number }> {
  const table = new CsvTable(source, delimiter);
  const rows: Array<{ cells: string[]; line: number }> = [];
  table.forEach((r) => rows.push({ cells: table.header.map((_, c) => table.cell(r, c)), line: table.line(r) }));
  expect(table.size).toBe(rows.length);
  return rows;
}

/** The text cut after some of its line breaks (`cuts` picks which), as a file read in pieces would give it. */
function piecesOf(text: string, cuts: readonly boolean[]): string[] {
  const pieces: string[] = [];
  let start = 0;
  let n = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) {
    if (cuts[n++ % Math.max(cuts.length, 1)]) {
      pieces.push(text.slice(start, at + 1));
      start = at + 1;
    }
  }
  if (start < text.length) pieces.push(text.slice(start));
  return pieces;
}

const dir = mkdtempSync(join(tmpdir(), 'copysim-csv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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

  it('reads a record with quotes that runs over several pieces', () => {
    const text = 'a,b\n1,"x\ny\nz"\n2,3\n';
    const pieces = ['a,b\n1,"x\n', 'y\n', 'z"\n2,3\n'];
    expect(tableRecords(() => pieces, ',')).toEqual([
      { cells: ['1', 'x\ny\nz'], line: 2 },
      { cells: ['2', '3'], line: 5 },
    ]);
    expect(tableRecords(() => pieces, ',')).toEqual(tableRecords(text, ','));
    // A quote never closed: the record runs to the end of the file, as parseCsv reads it.
    expect(tableRecords(() => ['a,b\n1,"x\n', 'y\n'], ',')).toEqual(parsedRecords('a,b\n1,"x\ny\n', ','));
  });

  it('agrees with parseCsv on generated texts', () => {
    const cell = fc.oneof(
      fc.constantFrom('', ' ', 'abc', ' 1.5 ', '\u00a0x\u00a0', 'So1111', '2024-03-01 00:02:22.000 UTC'),
      fc.string({ maxLength: 6 }).map((s) => s.replace(/[\r\n",;]/g, '')),
      fc.string({ maxLength: 6 }).map((s) => `"${s.replace(/"/g, '""')}"`),
    );
    const line = fc.array(cell, { minLength: 1, maxLength: 5 });
    const text = fc
      .tuple(
        fc.array(line, { minLength: 1, maxLength: 8 }),
        fc.constantFrom('\n', '\r\n'),
        fc.constantFrom(',', ';'),
        fc.boolean(),
      )
      .map(([lines, eol, sep, blank]) => ({
        text: lines.map((l) => l.join(sep)).join(blank ? `${eol}${eol}` : eol),
        sep,
      }));
    fc.assert(
      fc.property(text, ({ text, sep }) => {
        if (parseCsv(text, sep).length === 0) return true;
        expect(tableRecords(text, sep)).toEqual(parsedRecords(text, sep));
        return true;
      }),
      { numRuns: 2000 },
    );
  });

  it('gives the same records read in pieces cut at any line breaks', () => {
    const cell = fc.oneof(
      fc.constantFrom('', ' ', 'abc', ' 1.5 ', 'So1111'),
      fc.string({ maxLength: 6 }).map((s) => s.replace(/[\r\n",;]/g, '')),
      fc.string({ maxLength: 6 }).map((s) => `"${s.replace(/"/g, '""')}"`),
      fc.constantFrom('"a\nb"', '"\n\n"', '"x\r\ny"'),
    );
    const line = fc.array(cell, { minLength: 1, maxLength: 4 });
    const text = fc
      .tuple(fc.array(line, { minLength: 1, maxLength: 8 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
      .map(([lines, eol, blank]) => lines.map((l) => l.join(',')).join(blank ? `${eol}${eol}` : eol));
    fc.assert(
      fc.property(text, fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }), (text, cuts) => {
        if (parseCsv(text, ',').length === 0) return true;
        expect(tableRecords(() => piecesOf(text, cuts), ',')).toEqual(parsedRecords(text, ','));
        return true;
      }),
      { numRuns: 1000 },
    );
  });

  it('reads a file in pieces that end at line breaks and join to its text', () => {
    const long = 'x'.repeat(300);
    const text = `\ufeffa,b\n1,${long}\n2,"é\nü"\n3,4`;
    const path = join(dir, 'pieces.csv');
    writeFileSync(path, text);
    // Pieces of 64 bytes: the 300-character line needs a larger buffer.
    const pieces = [...exportPieces(path, 'dune', 64)];
    expect(pieces.join('')).toBe(readText(path, 'dune'));
    expect(pieces.length).toBeGreaterThanOrEqual(2);
    for (const piece of pieces.slice(0, -1)) expect(piece.endsWith('\n')).toBe(true);
    const short = join(dir, 'short-lines.csv');
    writeFileSync(short, `a,b\n${'1,2\n'.repeat(100)}`);
    expect([...exportPieces(short, 'dune', 64)].map((p) => p.length)).toEqual([...Array(6).fill(64), 404 - 6 * 64]);
    const table = readExportFile(path, 'pieces.csv', 'dune');
    const rows: unknown[] = [];
    table.forEachRow((r) => rows.push([table.column('a')(r), table.column('b')(r), table.where(r)]));
    expect(rows).toEqual([
      ['1', long, 'pieces.csv line 2'],
      ['2', 'é\nü', 'pieces.csv line 3'],
      ['3', '4', 'pieces.csv line 5'],
    ]);
    expect(table.first('b')).toBe(long);
    expect(() => readExportFile(join(dir, 'missing.csv'), 'missing.csv', 'dune')).toThrow(
      /dune file .*missing.csv: no such file/,
    );
  });

  it('names the file of an empty export, and reads rows by column name', () => {
    expect(() => readExportTable('\n\n', 'empty.csv')).toThrow(/empty.csv: the file is empty/);
    const table = readExportTable('block_time , taker\n2024-03-10 10:00:00.000 UTC, Abc \n', 'dune.csv');
    expect(table.rows[0]!.cells.taker).toBe('Abc');
    expect(table.first('taker')).toBe('Abc');
    table.forEachRow((row) => {
      expect(table.column('taker')(row)).toBe('Abc');
      expect(table.column('missing')(row)).toBeUndefined();
      expect(table.where(row)).toBe('dune.csv line 2');
    });
    // Cells are read while their row is visited; reading one later is a mistake that says so.
    expect(() => table.column('taker')(0)).toThrow(/record 0 is not the one being visited/);
  });
});
