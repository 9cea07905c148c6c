import { DecimalJs40 as Decimal } from '../../numeric/decimal.js';
import { InputError } from '../../model/errors.js';
import type { Network } from '../../model/request.js';
import type { TapeInput } from '../../model/tape.js';
import { keptSwaps } from './outliers.js';
import { priceAt, seriesWindow, type PriceSeries } from './prices.js';
import type { QuoteAsset, QuoteAssets } from './quote-assets.js';
import { DropLog, type ImportReport, type RowPlace } from './report.js';
import { isQuotient, quotient, readDigitsDecimal, tapeFormDigits, type DigitsDecimal } from './export-decimal.js';
import { buildTape, fitsTime, shortTapeText, type ImportedSwap, type SwapDecimal } from './tape-builder.js';
import type { ImportResult } from './uniswap.js';

/** One side of a trade as an export has it: the asset and the amount in whole units. */
export interface TradeLeg {
  /** Mint or contract address; for symbol-only exports, the symbol. */
  readonly address: string;
  readonly symbol?: string | null;
  /** The amount as the export has it (a number or its text), read only when needed. */
  readonly amount: unknown;
}

/** A trade as every provider's export has it: a wallet that sold one asset and bought another. */
export interface TradeRow {
  readonly wallet: string;
  readonly sold: TradeLeg;
  readonly bought: TradeLeg;
  /** Seconds, or null when the export has no time. */
  readonly time: number | null;
  /** The export's USD value of the trade, when it has one (a decimal, a number or its text). */
  readonly usd: unknown;
  readonly hash: string | null;
  readonly seq: readonly number[];
  readonly where: RowPlace;
}

/** How trades become swaps. */
export interface TradeOptions {
  readonly network: Network;
  readonly quotes: QuoteAssets;
  /** The native coin's USD series: the USD value of a trade paid in SOL/ETH when the export has none. */
  readonly nativeUsd?: PriceSeries;
  /** Identify assets by symbol (exports without addresses). */
  readonly bySymbol?: boolean;
  /** Drop prices more than this factor from their token's median (default 100; 0 keeps all). */
  readonly outlierFactor?: number;
  /** The time given to rows without one (exports that have none), in file order; unset drops them. */
  readonly assumeTime?: number;
  /** Names a row given by its number (see {@link RowPlace}). */
  readonly placeOf?: (row: number) => string;
}

/** A native price older than this is not the trade's: a series that ends before the data must not price it. */
const STALE_DAYS = 2;

/** The magnitude of a decimal (exports sign the amounts leaving a wallet); no copy when positive. */
function absolute(value: Decimal | null): Decimal | null {
  return value !== null && value.isNeg() ? value.abs() : value;
}

/**
 * A positive amount's text read without decimal.js, or null when it is not text of a positive
 * decimal the fast path reads (decimal.js then decides, as for every other value).
 */
function positiveDigits(value: unknown): DigitsDecimal | null {
  if (typeof value !== 'string') return null;
  const digits = readDigitsDecimal(value);
  return digits && !digits.isZero() ? digits : null;
}

/**
 * A cell as a trade's USD value: decimal text kept as text (the collector reads it, without
 * decimal.js when it can), anything else as {@link decimalOf} reads it; null when it is no decimal.
 */
export function usdCell(value: unknown): unknown {
  if (typeof value === 'string') return readDigitsDecimal(value) === null ? null : value;
  return decimalOf(value);
}

/** Parses a decimal amount (a number or its text); null when it is not one. */
export function decimalOf(value: unknown): Decimal | null {
  if (value instanceof Decimal) return value;
  if (typeof value === 'number') return Number.isFinite(value) ? new Decimal(value) : null;
  if (typeof value !== 'string') return null;
  const t = value.trim();
  return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t) ? new Decimal(t) : null;
}

/**
 * Turns trades into swaps, the one rule set of every provider importer: the leg that is a quote
 * asset (see {@link QUOTE_ASSETS}) is the money, the other the token; quote in and token out
 * (the wallet sold the quote asset) is a buy, the reverse a sell. The USD value is the export's,
 * else the quote amount × 1 for a stablecoin or × the native series at the trade's time.
 * Every row not used is counted under its reason.
 */
export class TradeCollector {
  readonly log: DropLog;
  private readonly swaps: ImportedSwap[] = [];
  private readonly tokens: NonNullable<TapeInput['tokens']> = {};
  private rows = 0;
  private usdFromExport = 0;
  private usdFromQuote = 0;
  private timesAssumed = 0;

  constructor(private readonly options: TradeOptions) {
    this.log = new DropLog(options.placeOf);
  }

  /** Counts a row that was dropped before it became a trade. */
  drop(reason: string, where: RowPlace): void {
    this.rows++;
    this.log.drop(reason, where);
  }

  add(row: TradeRow): void {
    this.rows++;
    const { network } = this.options;
    if (!row.wallet) return this.log.drop('no trader address', row.where);
    if (!row.sold.address || !row.bought.address) return this.log.drop('a leg without a token address', row.where);
    const soldQuote = this.quoteOf(row.sold);
    const boughtQuote = this.quoteOf(row.bought);
    if (soldQuote && boughtQuote) return this.log.drop('both legs are quote assets (e.g. SOL for USDC): not a token trade', row.where);
    if (!soldQuote && !boughtQuote) {
      return this.log.drop('neither leg is a quote asset (a token for a token): add one with --quote-assets', `${this.log.place(row.where)} (${row.sold.symbol || row.sold.address} -> ${row.bought.symbol || row.bought.address})`);
    }
    const type = soldQuote ? 'buy' : 'sell';
    const tokenLeg = soldQuote ? row.bought : row.sold;
    const quoteLeg = soldQuote ? row.sold : row.bought;
    const quote = (soldQuote ?? boughtQuote)!;
    // The usual row, a token amount and a USD value as text: priced without decimal.js, and
    // without an object for either when they are already in tape form.
    if (typeof tokenLeg.amount === 'string' && typeof row.usd === 'string' && tapeFormDigits(tokenLeg.amount) > 0 && tapeFormDigits(row.usd) > 0) {
      if (row.time === null && this.options.assumeTime === undefined) return this.log.drop('no time (the export has none; --assume-time gives one)', row.where);
      this.usdFromExport++;
      return this.keep(row, tokenLeg, type, tokenLeg.amount, quotient(row.usd, tokenLeg.amount), row.usd);
    }
    const fastQuantity = positiveDigits(tokenLeg.amount);
    const fastUsd = fastQuantity && positiveDigits(row.usd);
    if (fastQuantity && fastUsd) {
      if (row.time === null && this.options.assumeTime === undefined) return this.log.drop('no time (the export has none; --assume-time gives one)', row.where);
      this.usdFromExport++;
      return this.keep(row, tokenLeg, type, fastQuantity.compact(), quotient(fastUsd, fastQuantity), fastUsd.compact());
    }
    const quantity = absolute(decimalOf(tokenLeg.amount));
    if (!quantity?.gt(0)) return this.log.drop('token amount missing or 0', row.where);
    if (row.time === null && this.options.assumeTime === undefined) return this.log.drop('no time (the export has none; --assume-time gives one)', row.where);
    const time = row.time ?? this.options.assumeTime!;
    let usd = absolute(decimalOf(row.usd));
    if (usd?.gt(0)) this.usdFromExport++;
    else {
      const paid = absolute(decimalOf(quoteLeg.amount));
      if (!paid?.gt(0)) return this.log.drop('no USD value and no quote amount', row.where);
      if (quote.kind === 'usd') usd = paid;
      else {
        const flag = network === 'sol' ? '--sol-usd' : '--eth-usd';
        if (!this.options.nativeUsd) return this.log.drop(`no USD value in the export and no ${flag} series for its ${quote.symbol} leg`, row.where);
        const rate = priceAt(this.options.nativeUsd, time, STALE_DAYS * 86_400);
        if (rate === null) return this.log.drop(`no ${flag} price in the ${STALE_DAYS} days up to the trade`, row.where);
        usd = paid.times(rate);
      }
      this.usdFromQuote++;
    }
    this.keep(row, tokenLeg, type, quantity, usd.div(quantity), usd);
  }

  private quoteOf(leg: TradeLeg): QuoteAsset | undefined {
    const { quotes } = this.options;
    return this.options.bySymbol ? quotes.bySymbolOf(leg.symbol ?? leg.address) : quotes.byAddressOf(leg.address);
  }

  /** Writes a priced trade down as a swap. */
  private keep(row: TradeRow, tokenLeg: TradeLeg, type: 'buy' | 'sell', quantity: SwapDecimal, usdPrice: SwapDecimal, usdAmount: SwapDecimal): void {
    const { quotes } = this.options;
    if (row.time === null) this.timesAssumed++;
    const time = row.time ?? this.options.assumeTime!;
    // The usual row's decimals are texts in tape form (its price a quotient's tape text): their
    // length alone tells that they fit; any other value is checked with the tape's rules later.
    const fits =
      typeof quantity === 'string' && typeof usdAmount === 'string' && shortTapeText(quantity) && shortTapeText(usdAmount) && isQuotient(usdPrice) && shortTapeText(usdPrice.tape) && fitsTime(time);
    // Symbol-only exports keep the symbol as written; addresses compare case-insensitively on eth.
    const token = this.options.bySymbol ? tokenLeg.address : quotes.key(tokenLeg.address);
    if (this.tokens[token] === undefined && tokenLeg.symbol) this.tokens[token] = { name: null, symbol: tokenLeg.symbol };
    this.swaps.push({
      wallet: quotes.key(row.wallet),
      token,
      type,
      time,
      quantity,
      usdPrice,
      usdAmount,
      usdLiquidity: null,
      transactionHash: row.hash || null,
      seq: row.seq,
      where: row.where,
      fits,
    });
  }

  /**
   * The tape and the report. Nothing usable is an {@link InputError} naming the reasons:
   * never an empty tape.
   */
  finish(source: ImportReport['source'], file: string, notes: readonly string[] = []): ImportResult {
    const kept = keptSwaps(this.swaps, this.options.outlierFactor, this.log);
    if (kept.length === 0) {
      const reasons = this.log.list().map((d) => `${d.count} ${d.reason}`).join('; ');
      throw new InputError(`${file}: nothing usable: ${this.rows} rows read, none kept (${reasons || 'the file has no rows'})`, { source: file });
    }
    const first = kept.reduce((t, s) => Math.min(t, s.time), Infinity);
    const last = kept.reduce((t, s) => Math.max(t, s.time), -Infinity);
    const native = this.options.nativeUsd ? seriesWindow(this.options.nativeUsd, first, last) : [];
    const flag = this.options.network === 'sol' ? '--sol-usd' : '--eth-usd';
    return {
      tape: buildTape(this.options.network, kept, this.tokens, native),
      report: {
        source,
        rows: this.rows,
        kept: kept.length,
        dropped: this.log.list(),
        notes: [
          `USD values: ${this.usdFromExport} from the export, ${this.usdFromQuote} from the quote amount`,
          ...(this.timesAssumed > 0 ? [`${this.timesAssumed} swaps had no time and were placed at ${this.options.assumeTime} (--assume-time), in file order`] : []),
          'liquidity is unknown (exports carry no pool reserves): usd_liquidity is null',
          native.length > 0 ? `native prices: ${native.length} points of ${flag} over the trades' time range` : `no native prices (pass ${flag} FILE): simulating with fees will fail`,
          ...notes,
        ],
      },
    };
  }
}
