import { DecimalJs40 as Decimal, isPositiveDecimalString, isTapeMagnitude } from '../../numeric/decimal.js';
import type { Network } from '../../model/request.js';
import { SWAP_TIME_LIMIT, type TapeInput } from '../../model/tape.js';
import { TAPE_DIGITS, type ReadyDecimal } from './export-decimal.js';
import type { PriceSeries } from './prices.js';
import type { RowPlace } from './report.js';

/**
 * A swap's decimal: decimal.js; an export's digits read without it, or a result computed from
 * them (see export-decimal.ts); or a string already in tape form (plain notation, at most 20
 * significant digits: exactly the value).
 */
export type SwapDecimal = Decimal | ReadyDecimal | string;

/** A swap an importer has read and priced, before it is written into a tape. */
export interface ImportedSwap {
  readonly wallet: string;
  readonly token: string;
  readonly type: 'buy' | 'sell';
  readonly time: number;
  readonly quantity: SwapDecimal;
  readonly usdPrice: SwapDecimal;
  readonly usdAmount: SwapDecimal | null;
  readonly usdLiquidity: SwapDecimal | null;
  readonly transactionHash: string | null;
  /** Order among swaps of the same second (block and log index, or the input order). */
  readonly seq: readonly number[];
  /** Where it came from, for the drop report. */
  readonly where: RowPlace;
}

/** A decimal as a tape string: plain notation, at most 20 significant digits. */
export function tapeDecimal(value: SwapDecimal): string {
  if (typeof value === 'string') return value;
  if (!(value instanceof Decimal)) return value.tape;
  // Most values (an export's amounts) already fit: skip the rounded copy.
  return (value.sd() <= TAPE_DIGITS ? value : value.toSignificantDigits(TAPE_DIGITS)).toString();
}

/** A swap's decimal as decimal.js, for exact comparisons and messages. */
export function exactDecimal(value: SwapDecimal): Decimal {
  if (typeof value === 'string') return new Decimal(value);
  return value instanceof Decimal ? value : value.toDecimal();
}

/** A swap's decimal as the nearest float64 (decimal.js's `toNumber`). */
export function numberOf(value: SwapDecimal): number {
  return typeof value === 'string' ? Number(value) : value.toNumber();
}

/** True when a decimal, as the tape will spell it, is one the tape accepts (> 0, from 1e-60 to 1e60). */
export function fitsTape(value: SwapDecimal): boolean {
  // Digits print as digits and a point: only the magnitude is left to check. The scan decides
  // without parsing a number for all but a value near a bound of the range.
  if (!(value instanceof Decimal)) {
    const text = tapeDecimal(value);
    return isPositiveDecimalString(text) || isTapeMagnitude(Number(text));
  }
  return isPositiveDecimalString(tapeDecimal(value));
}

/**
 * True for a text in tape form (a positive decimal in plain notation) short enough to lie in the
 * tape's range without a look at its digits: at most 58 characters are from 1e-56 to below 1e58.
 */
export function shortTapeText(text: string): boolean {
  return text.length <= 58;
}

/** True when a time is one a tape holds: whole seconds from 1970 to the year 5138. */
export function fitsTime(time: number): boolean {
  return Number.isSafeInteger(time) && time >= 0 && time < SWAP_TIME_LIMIT;
}

/**
 * Why a swap with these values cannot go into a tape (the value at fault), or null when it can.
 * `exactPrice` gives the price's exact value for the message when `usdPrice` is a rounded text.
 */
export function whyNotTapeReady(
  quantity: SwapDecimal,
  usdPrice: SwapDecimal,
  usdAmount: SwapDecimal | null,
  usdLiquidity: SwapDecimal | null,
  time: number,
  exactPrice: () => Decimal = () => exactDecimal(usdPrice),
): string | null {
  const bad =
    misfit('quantity', quantity, () => exactDecimal(quantity)) ??
    misfit('usd_price', usdPrice, exactPrice) ??
    misfit('usd_amount', usdAmount, () => exactDecimal(usdAmount!)) ??
    misfit('usd_liquidity', usdLiquidity, () => exactDecimal(usdLiquidity!));
  if (bad !== null) return bad;
  return fitsTime(time) ? null : `time ${time} is not seconds from 1970 to the year 5138`;
}

/** Why a swap's decimal cannot go into a tape, or null when it can (or is absent). */
function misfit(field: string, value: SwapDecimal | null, exact: () => Decimal): string | null {
  if (value === null || fitsTape(value)) return null;
  return `${field} ${exact().toSignificantDigits(6).toExponential()} is outside the tape's range (1e-60 to 1e60)`;
}

function compareSeq(a: readonly number[], b: readonly number[]): number {
  return compareSeqRanges(a, 0, a.length, b, 0, b.length);
}

/**
 * Orders two swaps of one second by their order values a[aStart, aEnd) and b[bStart, bEnd), a
 * missing value read as 0.
 */
export function compareSeqRanges(
  a: ArrayLike<number>,
  aStart: number,
  aEnd: number,
  b: ArrayLike<number>,
  bStart: number,
  bEnd: number,
): number {
  for (let k = 0; k < Math.max(aEnd - aStart, bEnd - bStart); k++) {
    const d = (aStart + k < aEnd ? a[aStart + k]! : 0) - (bStart + k < bEnd ? b[bStart + k]! : 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * Writes swaps into a tape: sorted by time, then by their order within the second, so the
 * tape's event order is the chain's; decimals as strings.
 *
 * @example
 * const tape = buildTape('sol', swaps, { Mint111: { name: null, symbol: null } }, solUsd);
 */
export function buildTape(
  network: Network,
  swaps: readonly ImportedSwap[],
  tokens: NonNullable<TapeInput['tokens']>,
  nativePrices: PriceSeries,
): TapeInput {
  const sorted = [...swaps].sort((a, b) => a.time - b.time || compareSeq(a.seq, b.seq));
  return { network, tokens, native_prices: tapeNativePrices(nativePrices), swaps: sorted.map(tapeSwap) };
}

/** A native price series as a tape holds it. */
export function tapeNativePrices(nativePrices: PriceSeries): NonNullable<TapeInput['native_prices']> {
  // A native price the tape cannot hold comes only from a row already dropped for the same value.
  return nativePrices.filter(([t, p]) => fitsTime(t) && fitsTape(p)).map(([t, p]) => [t, tapeDecimal(p)]);
}

/**
 * A swap as the tape writes it. The optional fields are present or absent, in this key order:
 * the four shapes are spelled out, as object spreads made building the tape's objects slow.
 */
function tapeSwap(s: ImportedSwap): TapeInput['swaps'][number] {
  return tapeSwapOf(
    s.wallet,
    s.token,
    s.type,
    s.time,
    s.quantity,
    s.usdPrice,
    s.usdAmount,
    s.usdLiquidity,
    s.transactionHash,
  );
}

/** {@link tapeSwap} of the values themselves. */
export function tapeSwapOf(
  wallet: string,
  token: string,
  type: 'buy' | 'sell',
  time: number,
  quantityValue: SwapDecimal,
  usdPrice: SwapDecimal,
  usdAmount: SwapDecimal | null,
  usdLiquidity: SwapDecimal | null,
  hash: string | null,
): TapeInput['swaps'][number] {
  const quantity = tapeDecimal(quantityValue);
  const price = tapeDecimal(usdPrice);
  const liquidity = usdLiquidity === null ? null : tapeDecimal(usdLiquidity);
  if (usdAmount === null) {
    return hash === null
      ? { wallet, token, type, time, quantity, usd_price: price, usd_liquidity: liquidity }
      : { wallet, token, type, time, quantity, usd_price: price, usd_liquidity: liquidity, transaction_hash: hash };
  }
  const amount = tapeDecimal(usdAmount);
  return hash === null
    ? { wallet, token, type, time, quantity, usd_price: price, usd_amount: amount, usd_liquidity: liquidity }
    : {
        wallet,
        token,
        type,
        time,
        quantity,
        usd_price: price,
        usd_amount: amount,
        usd_liquidity: liquidity,
        transaction_hash: hash,
      };
}
