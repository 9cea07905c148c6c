/**
 * What an importer kept and dropped. Importers never stop at the first odd row: they drop it,
 * count it under its reason and keep a few examples, so a person can judge the data.
 */

/** Rows dropped for one reason. */
export interface DroppedRows {
  readonly reason: string;
  readonly count: number;
  /** Where the first few were (file, line or index), to look them up. */
  readonly examples: readonly string[];
}

/** The report of one import. */
export interface ImportReport {
  /** The importer's name (`dune`, `csv`, …: see `IMPORTERS`). */
  readonly source: string;
  /** Swap rows read. */
  readonly rows: number;
  /** Swaps written to the tape. */
  readonly kept: number;
  readonly dropped: readonly DroppedRows[];
  /** Facts about the result worth knowing (e.g. liquidity unknown, where native prices come from). */
  readonly notes: readonly string[];
}

const EXAMPLES = 3;

/**
 * Where a row is, for the report: its words (`file line 12`), or its number in an export that
 * the {@link DropLog} knows how to name. A number costs nothing per row; only the few examples
 * of a report are ever put into words.
 */
export type RowPlace = string | number;

/** Collects dropped rows by reason, in the order reasons first occur. */
export class DropLog {
  private readonly byReason = new Map<string, { count: number; examples: string[] }>();

  /** `placeOf` names a row given by its number. */
  constructor(private readonly placeOf: (row: number) => string = (row) => `row ${row}`) {}

  /** A row's place in words. */
  place(where: RowPlace): string {
    return typeof where === 'number' ? this.placeOf(where) : where;
  }

  /** Records one dropped row. */
  drop(reason: string, where: RowPlace): void {
    let entry = this.byReason.get(reason);
    if (entry === undefined) this.byReason.set(reason, (entry = { count: 0, examples: [] }));
    entry.count++;
    if (entry.examples.length < EXAMPLES) entry.examples.push(this.place(where));
  }

  get total(): number {
    let n = 0;
    for (const e of this.byReason.values()) n += e.count;
    return n;
  }

  list(): DroppedRows[] {
    return [...this.byReason].map(([reason, e]) => ({ reason, count: e.count, examples: e.examples }));
  }
}

/**
 * The report as text for standard error: one line per reason, then the notes.
 *
 * @example
 * formatImportReport(report);
 * // "pumpswap: read 11324 swap rows, kept 9807, dropped 1517:\n  1210 sell with no SOL amount (e.g. …)"
 */
export function formatImportReport(report: ImportReport): string {
  const dropped = report.rows - report.kept;
  const lines = [
    `${report.source}: read ${report.rows} swap rows, kept ${report.kept}, dropped ${dropped}${dropped > 0 ? ':' : ''}`,
  ];
  for (const d of report.dropped) lines.push(`  ${d.count} ${d.reason} (e.g. ${d.examples.join('; ')})`);
  for (const note of report.notes) lines.push(`  note: ${note}`);
  return `${lines.join('\n')}\n`;
}
