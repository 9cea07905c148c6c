import type { SimulatorRequestInput } from '../../model/request.js';
import type { TapeInput } from '../../model/tape.js';
import { utcIso } from '../../model/utc-time.js';

/** Counts of a tape, for the one-line summary of an import. */
export interface TapeSummary {
  readonly swaps: number;
  readonly wallets: number;
  readonly tokens: number;
  readonly nativePrices: number;
  /** First and last swap time, or null for an empty tape. */
  readonly from: number | null;
  readonly to: number | null;
}

const key = (tape: TapeInput, address: string): string => (tape.network === 'eth' ? address.toLowerCase() : address);

/**
 * Counts a tape's swaps, wallets and tokens and finds its time range.
 *
 * @example
 * summarizeTape(tape);
 * // { swaps: 5021, wallets: 2410, tokens: 3, nativePrices: 4010, from: 1663058912, to: 1686747551 }
 */
export function summarizeTape(tape: TapeInput): TapeSummary {
  let from: number | null = null;
  let to: number | null = null;
  for (const s of tape.swaps) {
    if (from === null || s.time < from) from = s.time;
    if (to === null || s.time > to) to = s.time;
  }
  return {
    swaps: tape.swaps.length,
    wallets: new Set(tape.swaps.map((s) => key(tape, s.wallet))).size,
    tokens: new Set(tape.swaps.map((s) => key(tape, s.token))).size,
    nativePrices: tape.native_prices?.length ?? 0,
    from,
    to,
  };
}

/**
 * The summary as one line, e.g.
 * `5021 swaps, 2410 wallets, 3 tokens, 2022-09-13T08:48:32Z .. 2023-06-14T12:59:11Z, 4010 native prices`.
 */
export function formatTapeSummary(s: TapeSummary): string {
  const range = s.from === null || s.to === null ? 'no time range' : `${utcIso(s.from)} .. ${utcIso(s.to)}`;
  const n = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;
  return (
    `${n(s.swaps, 'swap')}, ${n(s.wallets, 'wallet')}, ${n(s.tokens, 'token')}` +
    `, ${range}, ${n(s.nativePrices, 'native price')}`
  );
}

/**
 * Round trips per wallet: walking each wallet's swaps of each token in event order (time, then
 * tape order), a sell that comes after a buy not yet matched counts one round trip and matches
 * every buy before it. So buy, buy, sell, sell is one round trip; buy, sell, buy, sell is two.
 * Wallets are keyed as spelled by their first swap.
 *
 * @example
 * roundTrips(tape).get('Wallet111'); // 3
 */
export function roundTrips(tape: TapeInput): Map<string, number> {
  const order = tape.swaps.map((s, i) => ({ s, i })).sort((a, b) => a.s.time - b.s.time || a.i - b.i);
  const spelled = new Map<string, string>();
  const pending = new Set<string>();
  const counts = new Map<string, number>();
  for (const { s } of order) {
    const wallet = key(tape, s.wallet);
    if (!spelled.has(wallet)) spelled.set(wallet, s.wallet);
    const position = `${wallet}\u0000${key(tape, s.token)}`;
    if (s.type === 'buy') pending.add(position);
    else if (pending.delete(position)) counts.set(wallet, (counts.get(wallet) ?? 0) + 1);
  }
  return new Map([...counts].map(([wallet, n]) => [spelled.get(wallet)!, n]));
}

/**
 * The `n` wallets with the most round trips (see {@link roundTrips}), most first; ties by
 * address, so the choice is deterministic.
 *
 * @example
 * topRoundTripWallets(tape, 20); // [{ wallet: '0xabc…', roundTrips: 41 }, …]
 */
export function topRoundTripWallets(tape: TapeInput, n: number): { wallet: string; roundTrips: number }[] {
  return [...roundTrips(tape)]
    .map(([wallet, count]) => ({ wallet, roundTrips: count }))
    .sort((a, b) => b.roundTrips - a.roundTrips || (a.wallet < b.wallet ? -1 : a.wallet > b.wallet ? 1 : 0))
    .slice(0, n);
}

/**
 * A simulator request to start from: the `leaders` wallets with the most round trips, the
 * window of the tape's whole time range (UTC dates), and moderate settings. Null for a tape
 * without round trips.
 *
 * @example
 * const request = suggestRequest(tape, 20);
 */
export function suggestRequest(tape: TapeInput, leaders = 20): SimulatorRequestInput | null {
  const top = topRoundTripWallets(tape, leaders);
  const { from, to } = summarizeTape(tape);
  if (top.length === 0 || from === null || to === null) return null;
  return {
    wallets: top.map((t) => t.wallet),
    network: tape.network,
    from_date: utcIso(from).slice(0, 10),
    to_date: utcIso(to).slice(0, 10),
    buy_percentage: 100,
    max_buy_amount: 1_000,
    max_position_amount: 5_000,
    priority_fee: 0,
    bribe: 0,
    max_dupe_buy_times: 2,
    close_all: false,
    inactivity_time_fix: null,
    include_bot_fees: true,
  };
}
