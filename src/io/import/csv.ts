import { DecimalJs40 as Decimal } from '../../numeric/decimal.js';
import { InputError } from '../../model/errors.js';
import type { Network } from '../../model/request.js';
import type { TapeInput } from '../../model/tape.js';
import { parseCsv } from './csv-parse.js';
import { keptSwaps } from './outliers.js';
import { priceAt, seriesWindow, type PriceSeries } from './prices.js';
import { parseProviderTime } from './provider-time.js';
import { DropLog } from './report.js';
import { buildTape, type ImportedSwap } from './tape-builder.js';
import type { ImportResult } from './uniswap.js';

/** Tape fields a CSV column can map to. */
export const CSV_FIELDS = [
  'wallet', 'token', 'type', 'time', 'quantity',
  'usd_price', 'usd_amount', 'native_price', 'native_amount',
  'usd_liquidity', 'transaction_hash', 'token_name', 'token_symbol',
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
  /** `auto` (default): digits are Unix seconds, or milliseconds past 1e11; anything else an ISO date (UTC unless it says). */
  readonly timeFormat?: 'auto' | 'unix' | 'unix_ms' | 'iso';
  /** The native coin's USD series: the tape's native prices, and the rate for `native_price` / `native_amount`. */
  readonly nativePrices?: PriceSeries;
  readonly delimiter?: string;
  /** Drop prices more than this factor from their token's median (default 100; 0 keeps all). */
  readonly outlierFactor?: number;
}

const REQUIRED: readonly CsvField[] = ['wallet', 'token', 'type', 'time', 'quantity'];

/**
 * Parses a `field=column,…` mapping, as `copysim import csv --map` takes it.
 *
 * @example
 * parseColumnMapping('wallet=trader,token=mint,type=side,time=ts,quantity=tokens,usd_price=price_usd');
 */
export function parseColumnMapping(text: string): CsvColumns {
  const columns: CsvColumns = {};
  for (const pair of text.split(',').filter((p) => p.trim() !== '')) {
    const [field, column] = pair.split('=').map((s) => s.trim());
    if (!(CSV_FIELDS as readonly string[]).includes(field ?? '') || !column) {
      throw new InputError(`--map: "${pair}" is not field=column with a field among ${CSV_FIELDS.join(', ')}`, { source: '--map' });
    }
    columns[field as CsvField] = column;
  }
  return columns;
}

function parseTime(text: string, format: CsvImportOptions['timeFormat']): number | null {
  const t = text.trim();
  const numeric = /^\d+(\.\d+)?$/.test(t);
  // ISO and Dune's "2024-03-10 10:00:00.000 UTC"; UTC unless the text names a zone.
  if (format === 'iso' || (format === 'auto' && !numeric)) return numeric ? null : parseProviderTime(t);
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
  const cols = options.columns;
  const missing = REQUIRED.filter((f) => cols[f] === undefined);
  if (!cols.usd_price && !cols.usd_amount && !cols.native_price && !cols.native_amount) missing.push('usd_price');
  if (missing.length > 0) throw new InputError(`${source}: the column mapping lacks ${missing.join(', ')}`, { source });
  if ((cols.native_price || cols.native_amount) && !options.nativePrices) {
    throw new InputError(`${source}: native_price / native_amount need the native price series (--native-prices)`, { source });
  }
  const index = new Map<CsvField, number>();
  for (const [field, column] of Object.entries(cols) as [CsvField, string][]) {
    const i = header?.cells.indexOf(column) ?? -1;
    if (i < 0) throw new InputError(`${source}: no column "${column}" (mapped to ${field}) in the header line`, { source, line: 1 });
    index.set(field, i);
  }
  const lower = (values: readonly string[] | undefined, fallback: string): Set<string> => new Set((values ?? [fallback]).map((v) => v.toLowerCase()));
  const buys = lower(options.buyValues, 'buy');
  const sells = lower(options.sellValues, 'sell');
  const key = (a: string): string => (options.network === 'eth' ? a.toLowerCase() : a);

  const log = new DropLog();
  const tokens: NonNullable<TapeInput['tokens']> = {};
  const swaps: ImportedSwap[] = [];
  for (const { cells, line } of records) {
    const where = `${source} line ${line}`;
    const cell = (f: CsvField): string | undefined => (index.has(f) ? cells[index.get(f)!]?.trim() : undefined);
    // Addresses compare case-insensitively on eth: written lower-case there.
    const wallet = cell('wallet') && key(cell('wallet')!);
    const token = cell('token') && key(cell('token')!);
    if (!wallet || !token) {
      log.drop(`no ${wallet ? 'token' : 'wallet'}`, where);
      continue;
    }
    const side = (cell('type') ?? '').toLowerCase();
    const type = buys.has(side) ? 'buy' : sells.has(side) ? 'sell' : null;
    if (type === null) {
      log.drop(`type "${cell('type')}" is neither a buy nor a sell value`, where);
      continue;
    }
    const time = parseTime(cell('time') ?? '', options.timeFormat ?? 'auto');
    if (time === null || time < 0) {
      log.drop(`time "${cell('time')}" is not a ${options.timeFormat ?? 'Unix or ISO'} time`, where);
      continue;
    }
    const quantity = parseDecimal(cell('quantity'))?.abs();
    if (!quantity?.gt(0)) {
      log.drop('quantity is not a number > 0', where);
      continue;
    }
    const rate = options.nativePrices ? priceAt(options.nativePrices, time) : null;
    const native = (f: CsvField): Decimal | null => {
      const v = parseDecimal(cell(f));
      return v === null ? null : rate === null ? null : v.times(rate);
    };
    const usdAmount = index.has('usd_amount') ? parseDecimal(cell('usd_amount')) : index.has('native_amount') ? native('native_amount') : null;
    const usdPrice = index.has('usd_price')
      ? parseDecimal(cell('usd_price'))
      : index.has('native_price')
        ? native('native_price')
        : usdAmount?.div(quantity) ?? null;
    if (!usdPrice?.gt(0)) {
      log.drop(rate === null && !index.has('usd_price') && !index.has('usd_amount') ? 'no native price at or before the row' : 'price is not a number > 0', where);
      continue;
    }
    const liquidity = parseDecimal(cell('usd_liquidity'));
    const hash = cell('transaction_hash');
    if (tokens[token] === undefined && (cell('token_name') || cell('token_symbol'))) {
      tokens[token] = { name: cell('token_name') || null, symbol: cell('token_symbol') || null };
    }
    swaps.push({
      wallet, token, type, time, quantity, usdPrice,
      usdAmount: usdAmount?.gt(0) ? usdAmount : null,
      usdLiquidity: liquidity?.gt(0) ? liquidity : null,
      transactionHash: hash || null, seq: [line], where,
    });
  }
  const kept = keptSwaps(swaps, options.outlierFactor, log);
  if (kept.length === 0) {
    const reasons = log.list().map((d) => `${d.count} ${d.reason} (e.g. ${d.examples[0]})`).join('; ');
    throw new InputError(`${source}: nothing usable: ${records.length} rows read, none kept (${reasons || 'the file has no rows'})`, { source });
  }
  const first = kept.reduce((t, s) => Math.min(t, s.time), Infinity);
  const last = kept.reduce((t, s) => Math.max(t, s.time), -Infinity);
  const native = options.nativePrices && kept.length > 0 ? seriesWindow(options.nativePrices, first, last) : [];
  const notes = [
    index.has('usd_liquidity') ? 'usd_liquidity from the mapped column' : 'no usd_liquidity column: liquidity is unknown (null)',
    native.length > 0 ? `native prices: ${native.length} points of --native-prices over the rows' time range` : 'no native prices (pass --native-prices FILE): simulating with fees will fail',
  ];
  return {
    tape: buildTape(options.network, kept, tokens, native),
    report: { source: 'csv', rows: records.length, kept: kept.length, dropped: log.list(), notes },
  };
}
