import type { DecimalJs40 as Decimal } from '../../numeric/decimal.js';
import type { Network } from '../../model/request.js';
import type { TapeInput } from '../../model/tape.js';
import type { PriceSeries } from './prices.js';

/** A swap an importer has read and priced, before it is written into a tape. */
export interface ImportedSwap {
  readonly wallet: string;
  readonly token: string;
  readonly type: 'buy' | 'sell';
  readonly time: number;
  readonly quantity: Decimal;
  readonly usdPrice: Decimal;
  readonly usdAmount: Decimal | null;
  readonly usdLiquidity: Decimal | null;
  readonly transactionHash: string | null;
  /** Order among swaps of the same second (block and log index, or the input order). */
  readonly seq: readonly number[];
  /** Where it came from, for the drop report. */
  readonly where: string;
}

/** Significant digits written for computed decimals: more than float64 holds, far fewer than 40. */
const DIGITS = 20;

/** A decimal as a tape string: plain notation, at most 20 significant digits. */
export function tapeDecimal(value: Decimal): string {
  // Most values (an export's amounts) already fit: skip the rounded copy.
  return (value.sd() <= DIGITS ? value : value.toSignificantDigits(DIGITS)).toString();
}

function compareSeq(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
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
  return {
    network,
    tokens,
    native_prices: nativePrices.map(([t, p]) => [t, tapeDecimal(p)]),
    swaps: sorted.map((s) => ({
      wallet: s.wallet,
      token: s.token,
      type: s.type,
      time: s.time,
      quantity: tapeDecimal(s.quantity),
      usd_price: tapeDecimal(s.usdPrice),
      ...(s.usdAmount !== null ? { usd_amount: tapeDecimal(s.usdAmount) } : {}),
      usd_liquidity: s.usdLiquidity === null ? null : tapeDecimal(s.usdLiquidity),
      ...(s.transactionHash !== null ? { transaction_hash: s.transactionHash } : {}),
    })),
  };
}
