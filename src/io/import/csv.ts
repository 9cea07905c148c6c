import { DecimalJs40 as Decimal } from '../../numeric/decimal.js';
import { InputError } from '../../model/errors.js';
import type { Network } from '../../model/request.js';
import type { TapeInput } from '../../model/tape.js';
import { parseCsv } from './csv-parse.js';
import { keptSwaps } from './outliers.js';
import { priceAt, seriesWindow, type PriceSeries } from './prices.js';
import { optionName } from './option-names.js';
import { ProviderTimeReader } from './provider-time.js';
import { DropLog } from './report.js';
import { buildTape, type ImportedSwap } from './tape-builder.js';
import type { ImportResult } from './types.js';

/** Tape fields a CSV column can map to. */
export const CSV_FIELDS = [
  'wallet',
  'token',
  'type',
  'time',
  'quantity',
  'usd_price',
  'usd_amount',
  'native_price',
  'native_amount',
  'usd_liquidity',
  'transaction_hash',
  'token_name',
  'token_symbol',
] as const;
export type CsvField = (typeof CSV_FIELDS)[number];
/** Which column (by header name) holds each field. */
export type CsvColumns = Partial<Record<CsvField, string>>;

export interface CsvImportOptions {
  readonly network: Network;
  readonly columns: CsvColumns;
  /** Values of the `type` column meaning buy / sell, compared case-insensitively (default `buy` / `sell`). */
  readonly buyValues?: readonly string[];
  readonly sellValues?: readonly string[];
  /**
   * `auto` (default): digits are Unix seconds, or milliseconds past 1e11; anything else an ISO date (UTC unless it
   * says).
   */
  readonly timeFormat?: 'auto' | 'unix' | 'unix_ms' | 'iso';
  /** The native coin's USD series: the tape's native prices, and the rate for `native_price` / `native_amount`. */
  readonly nativePrices?: PriceSeries;
  readonly delimiter?: string;
  /** Drop prices more than this factor from their token's median (default 100; 0 keeps all). */
  readonly outlierFactor?: number;
}

const REQUIRED: readonly CsvField[] = ['wallet', 'token', 'type', 'time', 'quantity'];

/**
 * Parses a `field=column,…` mapping (the `columns` option) from text.
 *
 * @example
 * parseColumnMapping('wallet=trader,token=mint,type=side,time=ts,quantity=tokens,usd_price=price_usd');
 */
export function parseColumnMapping(text: string): CsvColumns {
  const columns: CsvColumns = {};
  for (const pair of text.split(',').filter((p) => p.trim() !== '')) {
    const [field, column] = pair.split('=').map((s) => s.trim());
    if (!(CSV_FIELDS as readonly string[]).includes(field ?? '') || !column) {
      const expected = `field=column with a field among ${CSV_FIELDS.join(', ')}`;
      throw new InputError(`${optionName('columns')}: "${pair}" is not ${expected}`, {
        source: 'options',
        path: 'columns',
      });
    }
    columns[field as CsvField] = column;
  }
  return columns;
}

function parseTime(text: string, format: CsvImportOptions['timeFormat'], times: ProviderTimeReader): number | null {
  const t = text.trim();
  const numeric = /^\d+(\.\d+)?$/.test(t);
  // ISO and Dune's "2024-03-10 10:00:00.000 UTC"; UTC unless the text names a zone.
  if (format === 'iso' || (format === 'auto' && !numeric)) return numeric ? null : times.read(t);
  if (!numeric) return null;
  const n = Number(t);
  return Math.floor(format === 'unix_ms' || (format === 'auto' && n >= 1e11) ? n / 1000 : n);
}

function parseDecimal(text: string | undefined): Decimal | null {
  const t = text?.trim() ?? '';
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return null;
  return new Decimal(t);
}

/**
 * Turns a CSV export (one swap a row, a header row first) into a tape with a column mapping.
 * A price comes from `usd_price`, else `usd_amount / quantity`, else `native_price` (or
 * `native_amount / quantity`) × the native series at the swap's time. Quantities are taken
 * as absolute values (some exports sign sells). Rows that cannot be used are dropped and
 * reported with their line numbers; a mapping naming a column the header lacks is an error.
 *
 * @example
 * const { tape, report } = importCsv(text, { network: 'sol', columns: parseColumnMapping('wallet=trader,…') });
 */
export function importCsv(text: string, options: CsvImportOptions, source = 'csv'): ImportResult {
  const [header, ...records] = parseCsv(text, options.delimiter);
  const rows = new CsvRows(mappedColumns(header?.cells ?? [], options, source), options);
  const log = new DropLog();
  const swaps: ImportedSwap[] = [];
  for (const { cells, line } of records) {
    const where = `${source} line ${line}`;
    const swap = rows.swap(cells, line, where);
    if (typeof swap === 'string') log.drop(swap, where);
    else swaps.push(swap);
  }
  return csvTape(swaps, records.length, rows, log, options, source);
}

/**
 * Where each mapped field is in the header line; an {@link InputError} for a mapping that lacks a
 * field, a native field without the native series, or a column the header does not have.
 */
function mappedColumns(header: readonly string[], options: CsvImportOptions, source: string): Map<CsvField, number> {
  const cols = options.columns;
  const missing = REQUIRED.filter((f) => cols[f] === undefined);
  if (!cols.usd_price && !cols.usd_amount && !cols.native_price && !cols.native_amount) missing.push('usd_price');
  if (missing.length > 0) throw new InputError(`${source}: the column mapping lacks ${missing.join(', ')}`, { source });
  if ((cols.native_price || cols.native_amount) && !options.nativePrices) {
    const series = optionName('nativePrices');
    throw new InputError(`${source}: native_price / native_amount need the native price series (${series})`, {
      source,
    });
  }
  const index = new Map<CsvField, number>();
  for (const [field, column] of Object.entries(cols) as [CsvField, string][]) {
    const i = header.indexOf(column);
    if (i < 0) {
      const where = { source, line: 1 };
      throw new InputError(`${source}: no column "${column}" (mapped to ${field}) in the header line`, where);
    }
    index.set(field, i);
  }
  return index;
}

/** Reads the rows of one CSV export as swaps, by the mapping's places of the fields. */
class CsvRows {
  /** Each token's name and symbol, from the first of its rows that has one. */
  readonly tokens: NonNullable<TapeInput['tokens']> = {};
  private readonly buys: ReadonlySet<string>;
  private readonly sells: ReadonlySet<string>;
  private readonly times = new ProviderTimeReader();

  constructor(
    private readonly index: ReadonlyMap<CsvField, number>,
    private readonly options: CsvImportOptions,
  ) {
    const lower = (values: readonly string[] | undefined, fallback: string): Set<string> =>
      new Set((values ?? [fallback]).map((v) => v.toLowerCase()));
    this.buys = lower(options.buyValues, 'buy');
    this.sells = lower(options.sellValues, 'sell');
  }

  /** True when the mapping names a column for `field`. */
  has(field: CsvField): boolean {
    return this.index.has(field);
  }

  /** A row as a swap, or why it is dropped. */
  swap(cells: readonly string[], line: number, where: string): ImportedSwap | string {
    const { options } = this;
    // Addresses compare case-insensitively on eth: written lower-case there.
    const wallet = this.cell(cells, 'wallet') && this.key(this.cell(cells, 'wallet')!);
    const token = this.cell(cells, 'token') && this.key(this.cell(cells, 'token')!);
    if (!wallet || !token) return `no ${wallet ? 'token' : 'wallet'}`;
    const side = (this.cell(cells, 'type') ?? '').toLowerCase();
    const type = this.buys.has(side) ? 'buy' : this.sells.has(side) ? 'sell' : null;
    if (type === null) return `type "${this.cell(cells, 'type')}" is neither a buy nor a sell value`;
    const time = parseTime(this.cell(cells, 'time') ?? '', options.timeFormat ?? 'auto', this.times);
    if (time === null || time < 0) {
      return `time "${this.cell(cells, 'time')}" is not a ${options.timeFormat ?? 'Unix or ISO'} time`;
    }
    const quantity = parseDecimal(this.cell(cells, 'quantity'))?.abs();
    if (!quantity?.gt(0)) return 'quantity is not a number > 0';
    const rate = options.nativePrices ? priceAt(options.nativePrices, time) : null;
    const usdAmount = this.has('usd_amount')
      ? parseDecimal(this.cell(cells, 'usd_amount'))
      : this.has('native_amount')
        ? this.native(cells, 'native_amount', rate)
        : null;
    const usdPrice = this.has('usd_price')
      ? parseDecimal(this.cell(cells, 'usd_price'))
      : this.has('native_price')
        ? this.native(cells, 'native_price', rate)
        : (usdAmount?.div(quantity) ?? null);
    if (!usdPrice?.gt(0)) {
      const unpriced = rate === null && !this.has('usd_price') && !this.has('usd_amount');
      return unpriced ? 'no native price at or before the row' : 'price is not a number > 0';
    }
    const liquidity = parseDecimal(this.cell(cells, 'usd_liquidity'));
    const hash = this.cell(cells, 'transaction_hash');
    if (this.tokens[token] === undefined) this.nameToken(cells, token);
    return {
      wallet,
      token,
      type,
      time,
      quantity,
      usdPrice,
      usdAmount: usdAmount?.gt(0) ? usdAmount : null,
      usdLiquidity: liquidity?.gt(0) ? liquidity : null,
      transactionHash: hash || null,
      seq: [line],
      where,
    };
  }

  /** Writes down a token's name and symbol when the row has either. */
  private nameToken(cells: readonly string[], token: string): void {
    const name = this.cell(cells, 'token_name');
    const symbol = this.cell(cells, 'token_symbol');
    if (name || symbol) this.tokens[token] = { name: name || null, symbol: symbol || null };
  }

  /** A field's cell, trimmed; undefined when the mapping has no column for it or the row is short. */
  private cell(cells: readonly string[], field: CsvField): string | undefined {
    const i = this.index.get(field);
    return i === undefined ? undefined : cells[i]?.trim();
  }

  /** An address as the tape keeps it: lower-case on eth. */
  private key(address: string): string {
    return this.options.network === 'eth' ? address.toLowerCase() : address;
  }

  /** A native amount or price in USD at `rate`; null without either. */
  private native(cells: readonly string[], field: CsvField, rate: Decimal | null): Decimal | null {
    const v = parseDecimal(this.cell(cells, field));
    return v === null ? null : rate === null ? null : v.times(rate);
  }
}

/** The tape of the swaps kept, and the report; nothing kept is an {@link InputError} naming the reasons. */
function csvTape(
  swaps: ImportedSwap[],
  rowCount: number,
  rows: CsvRows,
  log: DropLog,
  options: CsvImportOptions,
  source: string,
): ImportResult {
  const kept = keptSwaps(swaps, options.outlierFactor, log);
  if (kept.length === 0) {
    const reasons = log
      .list()
      .map((d) => `${d.count} ${d.reason} (e.g. ${d.examples[0]})`)
      .join('; ');
    const read = `${rowCount} rows read, none kept (${reasons || 'the file has no rows'})`;
    throw new InputError(`${source}: nothing usable: ${read}`, { source });
  }
  const first = kept.reduce((t, s) => Math.min(t, s.time), Infinity);
  const last = kept.reduce((t, s) => Math.max(t, s.time), -Infinity);
  const native = options.nativePrices && kept.length > 0 ? seriesWindow(options.nativePrices, first, last) : [];
  const series = optionName('nativePrices');
  const notes = [
    rows.has('usd_liquidity')
      ? 'usd_liquidity from the mapped column'
      : 'no usd_liquidity column: liquidity is unknown (null)',
    native.length > 0
      ? `native prices: ${native.length} points of ${series} over the rows' time range`
      : `no native prices (pass ${series} FILE): simulating with fees will fail`,
  ];
  return {
    tape: buildTape(options.network, kept, rows.tokens, native),
    report: { source: 'csv', rows: rowCount, kept: kept.length, dropped: log.list(), notes },
  };
}
