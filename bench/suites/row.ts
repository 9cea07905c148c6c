/** One line of the benchmark table. */
export interface Row {
  readonly suite: string;
  readonly measure: string;
  readonly value: number;
  readonly unit: string;
  /** The target, as text (`≥ 1,000,000`), and whether the value meets it. */
  readonly target?: string;
  readonly met?: boolean;
  /** What was measured exactly: sizes, counts, best of how many runs. */
  readonly note?: string;
}

/** A row with a target `value ≥ floor` (`atLeast`) or `value ≤ ceiling` (`atMost`). */
export function row(
  suite: string,
  measure: string,
  value: number,
  unit: string,
  extra: { atLeast?: number; atMost?: number; note?: string } = {},
): Row {
  const { atLeast, atMost, note } = extra;
  const target =
    atLeast !== undefined ? `≥ ${format(atLeast)}` : atMost !== undefined ? `≤ ${format(atMost)}` : undefined;
  const met = atLeast !== undefined ? value >= atLeast : atMost !== undefined ? value <= atMost : undefined;
  return {
    suite,
    measure,
    value,
    unit,
    ...(target !== undefined ? { target, met } : {}),
    ...(note !== undefined ? { note } : {}),
  };
}

/** A number for the table: thousands separated, at most 3 significant decimals below 100. */
export function format(value: number): string {
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  return Number(value.toPrecision(3)).toLocaleString('en-US', { maximumFractionDigits: 3 });
}

/** The rows as an aligned text table. */
export function table(rows: readonly Row[]): string {
  const cells = rows.map((r) => [
    r.suite,
    r.measure,
    `${format(r.value)} ${r.unit}`,
    r.target ?? '',
    r.met === undefined ? '' : r.met ? 'yes' : 'NO',
    r.note ?? '',
  ]);
  const head = ['suite', 'measure', 'value', 'target', 'met', 'note'];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]): string =>
    c
      .map((x, i) => x.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}
