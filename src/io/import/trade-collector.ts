import { DecimalJs40 as Decimal } from '../../numeric/decimal.js';
import { InputError } from '../../model/errors.js';
import type { Network } from '../../model/request.js';
import type { TapeInput } from '../../model/tape.js';
import {
  derivedNativeNote,
  hourlyNativePrices,
  NativeRateSamples,
  type NativeDerivation,
} from './derived-native-prices.js';
import { quotientTape, readDigitsDecimal, tapeFormDigits, type DigitsDecimal } from './export-decimal.js';
import { optionName } from './option-names.js';
import { keptRows } from './outliers.js';
import { priceAt, seriesWindow, type PriceSeries } from './prices.js';
import type { QuoteAsset, QuoteAssets } from './quote-assets.js';
import { DropLog, type ImportReport, type RowPlace } from './report.js';
import { SwapColumns, SwapRecord } from './swap-columns.js';
import { fitsTime, shortTapeText, tapeNativePrices, type SwapDecimal } from './tape-builder.js';
import type { ImportResult } from './types.js';

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

/** Why a row without a time is dropped. */
const NO_TIME = `no time (the export has none; ${optionName('assumeTime')} gives one)`;
/** Why a trade of a token for a token is dropped. */
const NO_QUOTE_LEG = `neither leg is a quote asset (a token for a token): add one with ${optionName('quoteAssets')}`;

/** The magnitude of a decimal (exports sign the amounts leaving a wallet); no copy when positive. */
function absolute(value: Decimal | null): Decimal | null {
  return value?.isNeg() ? value.abs() : value;
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
 * Every row not used is counted under its reason. Without a native series, the tape's native
 * prices are derived from the swaps with both a USD value and a native leg
 * (derived-native-prices.ts).
 */
export class TradeCollector {
  readonly log: DropLog;
  private readonly swaps = new SwapColumns();
  private readonly tokens: NonNullable<TapeInput['tokens']> = {};
  private readonly tokenKeys = new Map<string, { readonly key: string; named: boolean }>();
  private rows = 0;
  private usdFromExport = 0;
  private usdFromQuote = 0;
  private timesAssumed = 0;
  /** The option of the native coin's USD series, as the messages name it. */
  private readonly nativeSeries: string;
  /** Without a native series: the swaps' USD values and native amounts, the native prices are derived from. */
  private readonly nativeSamples: NativeRateSamples | null;

  constructor(private readonly options: TradeOptions) {
    this.log = new DropLog(options.placeOf);
    this.nativeSeries = optionName(options.network === 'sol' ? 'solUsd' : 'ethUsd');
    this.nativeSamples = options.nativeUsd ? null : new NativeRateSamples();
  }

  /** Counts a row that was dropped before it became a trade. */
  drop(reason: string, where: RowPlace): void {
    this.rows++;
    this.log.drop(reason, where);
  }

  add(row: TradeRow): void {
    this.rows++;
    if (!row.wallet) return this.log.drop('no trader address', row.where);
    if (!row.sold.address || !row.bought.address) return this.log.drop('a leg without a token address', row.where);
    const soldQuote = this.quoteOf(row.sold);
    const boughtQuote = this.quoteOf(row.bought);
    if (soldQuote && boughtQuote)
      return this.log.drop('both legs are quote assets (e.g. SOL for USDC): not a token trade', row.where);
    if (!soldQuote && !boughtQuote) {
      const legs = `${row.sold.symbol || row.sold.address} -> ${row.bought.symbol || row.bought.address}`;
      return this.log.drop(NO_QUOTE_LEG, `${this.log.place(row.where)} (${legs})`);
    }
    const type = soldQuote ? 'buy' : 'sell';
    const tokenLeg = soldQuote ? row.bought : row.sold;
    const quoteLeg = soldQuote ? row.sold : row.bought;
    const quote = (soldQuote ?? boughtQuote)!;
    // The usual row, a token amount and a USD value as text: priced without decimal.js, and
    // without an object for either when they are already in tape form.
    if (
      typeof tokenLeg.amount === 'string' &&
      typeof row.usd === 'string' &&
      tapeFormDigits(tokenLeg.amount) > 0 &&
      tapeFormDigits(row.usd) > 0
    ) {
      if (row.time === null && this.options.assumeTime === undefined) return this.log.drop(NO_TIME, row.where);
      this.usdFromExport++;
      this.sample(quote, row, row.usd, quoteLeg.amount);
      return this.keepQuotient(row, tokenLeg, type, tokenLeg.amount, row.usd);
    }
    const fastQuantity = positiveDigits(tokenLeg.amount);
    const fastUsd = fastQuantity && positiveDigits(row.usd);
    if (fastQuantity && fastUsd) {
      if (row.time === null && this.options.assumeTime === undefined) return this.log.drop(NO_TIME, row.where);
      this.usdFromExport++;
      const usd = fastUsd.compact();
      this.sample(quote, row, usd, quoteLeg.amount);
      return this.keepQuotient(row, tokenLeg, type, fastQuantity.compact(), usd);
    }
    const quantity = absolute(decimalOf(tokenLeg.amount));
    if (!quantity?.gt(0)) return this.log.drop('token amount missing or 0', row.where);
    if (row.time === null && this.options.assumeTime === undefined) return this.log.drop(NO_TIME, row.where);
    const time = row.time ?? this.options.assumeTime!;
    let usd = absolute(decimalOf(row.usd));
    if (usd?.gt(0)) {
      this.usdFromExport++;
      this.sample(quote, row, usd, quoteLeg.amount);
    } else {
      const paid = absolute(decimalOf(quoteLeg.amount));
      if (!paid?.gt(0)) return this.log.drop('no USD value and no quote amount', row.where);
      if (quote.kind === 'usd') usd = paid;
      else {
        if (!this.options.nativeUsd) {
          const reason = `no USD value in the export and no ${this.nativeSeries} series for its ${quote.symbol} leg`;
          return this.log.drop(reason, row.where);
        }
        const rate = priceAt(this.options.nativeUsd, time, STALE_DAYS * 86_400);
        if (rate === null) {
          return this.log.drop(`no ${this.nativeSeries} price in the ${STALE_DAYS} days up to the trade`, row.where);
        }
        usd = paid.times(rate);
      }
      this.usdFromQuote++;
    }
    this.keep(row, tokenLeg, type, quantity, usd.div(quantity), usd);
  }

  /**
   * Notes a swap about to be kept (the next of {@link swaps}) that has the export's USD value and
   * a native leg, for the native prices derived when no series is given.
   */
  private sample(quote: QuoteAsset, row: TradeRow, usd: SwapDecimal, native: unknown): void {
    if (this.nativeSamples === null || quote.kind !== 'native') return;
    this.nativeSamples.add(row.time ?? this.options.assumeTime!, usd, native, this.swaps.count);
  }

  /**
   * The one string kept for a token, and whether its symbol is written down: a token recurs in
   * many rows, and one string for all of them is less for an import to hold (and the outlier
   * check finds its rows by that string).
   */
  private tokenOf(address: string): { readonly key: string; named: boolean } {
    let token = this.tokenKeys.get(address);
    if (token === undefined) this.tokenKeys.set(address, (token = { key: address, named: false }));
    return token;
  }

  private quoteOf(leg: TradeLeg): QuoteAsset | undefined {
    const { quotes } = this.options;
    return this.options.bySymbol ? quotes.bySymbolOf(leg.symbol ?? leg.address) : quotes.byAddressOf(leg.address);
  }

  /**
   * Writes down the usual row: its quantity and USD value read without decimal.js, its price their
   * quotient, kept as its tape text (the rare exact comparison divides again, {@link SwapColumns.exactPrice}).
   */
  private keepQuotient(
    row: TradeRow,
    tokenLeg: TradeLeg,
    type: 'buy' | 'sell',
    quantity: string | DigitsDecimal,
    usdAmount: string | DigitsDecimal,
  ): void {
    this.keep(row, tokenLeg, type, quantity, quotientTape(usdAmount, quantity), usdAmount, true);
  }

  /** Writes a priced trade down as a swap. */
  private keep(
    row: TradeRow,
    tokenLeg: TradeLeg,
    type: 'buy' | 'sell',
    quantity: SwapDecimal,
    usdPrice: SwapDecimal,
    usdAmount: SwapDecimal,
    isQuotient = false,
  ): void {
    const { quotes } = this.options;
    if (row.time === null) this.timesAssumed++;
    const time = row.time ?? this.options.assumeTime!;
    // Texts in tape form (a quotient's price among them) fit by their length alone; any other
    // value is checked with the tape's rules when the tape is made.
    const fits =
      typeof quantity === 'string' &&
      typeof usdAmount === 'string' &&
      typeof usdPrice === 'string' &&
      shortTapeText(quantity) &&
      shortTapeText(usdAmount) &&
      shortTapeText(usdPrice) &&
      fitsTime(time);
    // Symbol-only exports keep the symbol as written; addresses compare case-insensitively on eth.
    const token = this.tokenOf(this.options.bySymbol ? tokenLeg.address : quotes.key(tokenLeg.address));
    if (!token.named && tokenLeg.symbol) {
      if (this.tokens[token.key] === undefined) this.tokens[token.key] = { name: null, symbol: tokenLeg.symbol };
      token.named = true;
    }
    this.swaps.add(
      new SwapRecord(quotes.key(row.wallet), token.key, quantity, usdPrice, usdAmount, row.hash || null, row.where),
      type,
      time,
      row.seq,
      fits,
      isQuotient,
    );
  }

  /**
   * The tape and the report. Nothing usable is an {@link InputError} naming the reasons:
   * never an empty tape.
   */
  finish(source: ImportReport['source'], file: string, notes: readonly string[] = []): ImportResult {
    const kept = keptRows(this.swaps, this.options.outlierFactor ?? 100, this.log);
    if (kept.length === 0) {
      const reasons = this.log
        .list()
        .map((d) => `${d.count} ${d.reason}`)
        .join('; ');
      throw new InputError(
        `${file}: nothing usable: ${this.rows} rows read, none kept (${reasons || 'the file has no rows'})`,
        { source: file },
      );
    }
    let first = Infinity;
    let last = -Infinity;
    for (const i of kept) {
      first = Math.min(first, this.swaps.timeOf(i));
      last = Math.max(last, this.swaps.timeOf(i));
    }
    const native = this.nativePrices(kept, first, last);
    return {
      tape: {
        network: this.options.network,
        tokens: this.tokens,
        native_prices: native.points,
        swaps: this.swaps.tapeSwaps(kept),
      },
      report: {
        source,
        rows: this.rows,
        kept: kept.length,
        dropped: this.log.list(),
        notes: [...this.notes(native.note), ...notes],
      },
      ...(native.derivation ? { derivedNative: native.derivation } : {}),
    };
  }

  /**
   * The tape's native prices and the report's note on them: the series given, over the trades'
   * time range; else those derived from the swaps kept, with what they were derived from.
   */
  private nativePrices(
    kept: readonly number[],
    first: number,
    last: number,
  ): { points: NonNullable<TapeInput['native_prices']>; note: string; derivation?: NativeDerivation } {
    const { nativeUsd, network } = this.options;
    if (this.nativeSamples === null) {
      const points = tapeNativePrices(seriesWindow(nativeUsd!, first, last));
      const count = `${points.length} point${points.length === 1 ? '' : 's'}`;
      const note =
        points.length > 0
          ? `native prices: ${count} of ${this.nativeSeries} over the trades' time range`
          : `no native prices (pass ${this.nativeSeries} FILE): simulating with fees will fail`;
      return { points, note };
    }
    let isKept: (swap: number) => boolean = () => true;
    if (kept.length < this.swaps.count) {
      const keptSwaps = new Uint8Array(this.swaps.count);
      for (const i of kept) keptSwaps[i] = 1;
      isKept = (swap) => keptSwaps[swap] === 1;
    }
    const samples = this.nativeSamples.only(isKept);
    const derived = hourlyNativePrices(samples);
    const note = derivedNativeNote(derived, network);
    return { points: derived.points, note, derivation: { samples, note } };
  }

  /** The report's notes on the values: where they came from, the times assumed, the native prices. */
  private notes(nativeNote: string): string[] {
    const assumed = `${this.timesAssumed} swaps had no time and were placed at ${this.options.assumeTime}`;
    return [
      `USD values: ${this.usdFromExport} from the export, ${this.usdFromQuote} from the quote amount`,
      ...(this.timesAssumed > 0 ? [`${assumed} (${optionName('assumeTime')}), in file order`] : []),
      'liquidity is unknown (exports carry no pool reserves): usd_liquidity is null',
      nativeNote,
    ];
  }
}
