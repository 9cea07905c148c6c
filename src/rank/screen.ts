/**
 * The screen of a rank with `top`: every candidate copied alone in double words with a proven
 * error bound (word-copy.ts), to find the wallets whose rows can be among the first `top`; only
 * those rows are then made. The rows, and so the output, are those of the whole rank, byte for
 * byte (docs/rank.md, "The screen of a rank with `--top`"). A wallet the double words leave
 * undecided is kept.
 */
import { type Bounded, dividedBy, exactly, HUNDRED_BOUNDED, times, ZERO_BOUNDED } from '../numeric/bounded.js';
import type { Candidate, RankContext, RankedWallet, RankMetric, RankOptions } from './rank.js';
import { metricOf } from './rank.js';
import { copyInWordsApplies, decided, WordCopy, wordCopyOf, type WordSums } from './word-copy.js';

/** The sort metrics the screen bounds: sums over a copier's deals, and its deal counts. */
export const SCREENED_METRICS = [
  'pnl_total',
  'roi_total',
  'investment_amount',
  'trading_volume',
  'deals',
  'closed_deals',
] as const satisfies readonly RankMetric[];
export type ScreenedMetric = (typeof SCREENED_METRICS)[number];

/** The largest `top` a screen is made for: beyond a walk's worth of wallets it saves little. */
export const SCREEN_TOP_LIMIT = 500;

/**
 * Whether a rank of `request` (as given, before `rankRequest` adds the copier's wallet) with
 * these options is screened: a `top` of at most {@link SCREEN_TOP_LIMIT}, a screened metric, and
 * a copy in double words (`copyInWordsApplies`: a strategy that only reports or sets a starting
 * balance, and every swap a price observation).
 */
export function screenApplies(
  request: unknown,
  options: Pick<RankOptions, 'top' | 'sortBy' | 'engineOptions'>,
): boolean {
  if (options.top === undefined || options.top > SCREEN_TOP_LIMIT) return false;
  if (!(SCREENED_METRICS as readonly string[]).includes(options.sortBy ?? 'pnl_total')) return false;
  return copyInWordsApplies(request, options.engineOptions ?? {});
}

/** A candidate's screened figures: its deal count and the interval of the sort metric. */
export interface ScreenedWallet {
  readonly deals: number;
  /** The metric as the row prints it (the nearest double of the exact value) lies in [low, high]. */
  readonly low: number;
  readonly high: number;
}

/** What the screen chose: the wallets to copy exactly, and the bounds of each decided one to check them by. */
export interface ScreenVerdict {
  readonly confirm: Candidate[];
  /** By wallet id; absent for a wallet the doubles left undecided. */
  readonly bounds: ReadonlyMap<number, ScreenedWallet>;
}

/** The screened figures of the candidates the doubles decide, by wallet id. */
export type ScreenBounds = Map<number, ScreenedWallet>;

/**
 * The wallets to copy exactly (in the order given) once the candidates are screened, or null when
 * the screen leaves out none of them. A wallet is left out only when its metric is surely below
 * the `top`-th largest lower bound among wallets that surely pass `minDeals` (so at least `top`
 * wallets kept rank above it), or it surely fails `minDeals`.
 */
export function contenders(
  candidates: readonly Candidate[],
  bounds: ScreenBounds,
  options: Pick<RankOptions, 'top' | 'minDeals'>,
): ScreenVerdict | null {
  const top = options.top!;
  const minDeals = options.minDeals ?? 0;
  const lows: number[] = [];
  for (const b of bounds.values()) if (b.deals >= minDeals) lows.push(b.low);
  if (lows.length < top) return null;
  lows.sort((a, b) => b - a);
  const threshold = lows[top - 1]!;
  const confirm = candidates.filter(({ id }) => {
    const b = bounds.get(id);
    return b === undefined || (b.deals >= minDeals && b.high >= threshold);
  });
  return confirm.length === candidates.length ? null : { confirm, bounds };
}

/** The screen's figures as numbers for another thread: id, deals, low and high of each decided wallet. */
export function packBounds(bounds: ScreenBounds): Float64Array {
  const packed = new Float64Array(4 * bounds.size);
  let at = 0;
  for (const [id, b] of bounds) {
    packed.set([id, b.deals, b.low, b.high], at);
    at += 4;
  }
  return packed;
}

/** Adds the figures {@link packBounds} gave to `into`. */
export function unpackBounds(packed: Float64Array, into: ScreenBounds): void {
  for (let at = 0; at < packed.length; at += 4) {
    into.set(packed[at]!, { deals: packed[at + 1]!, low: packed[at + 2]!, high: packed[at + 3]! });
  }
}

/**
 * True when every exact row agrees with its screened bounds (the same deal count, the metric
 * within them): the screen's own check that its replay matches the engine's. A row that does
 * not makes the rank copy every candidate instead.
 */
export function rowsAgree(rows: readonly RankedWallet[], verdict: ScreenVerdict, metric: RankMetric): boolean {
  return rows.every((row, k) => {
    const b = verdict.bounds.get(verdict.confirm[k]!.id);
    if (b === undefined) return true;
    const value = metricOf(row, metric);
    return row.deals === b.deals && value !== null && value >= b.low && value <= b.high;
  });
}

/**
 * Screens wallets: each copied alone in double words ({@link WordCopy}), the sort metric's
 * bounds kept for those the double words decide.
 */
export class WalletScreen {
  private readonly copy: WordCopy;

  /** Over a rank context's copy in double words, or a copy made of rows shared by another thread. */
  constructor(from: RankContext | WordCopy) {
    this.copy = from instanceof WordCopy ? from : wordCopyOf(from);
  }

  /** Each candidate copied alone: its screened figures by wallet id, for those the double words decide. */
  bounds(candidates: readonly Candidate[], metric: ScreenedMetric): ScreenBounds {
    const bounds: ScreenBounds = new Map();
    for (const { id } of candidates) {
      const screened = this.wallet(id, metric);
      if (screened !== null) bounds.set(id, screened);
    }
    return bounds;
  }

  /** Wallet `id` copied alone: its deal count and the metric's bounds, or null when undecided. */
  private wallet(id: number, metric: ScreenedMetric): ScreenedWallet | null {
    return decided(() => {
      const sums = this.copy.sums(id);
      const value = metricValue(sums, metric);
      return { deals: sums.deals, low: value.low, high: value.high };
    });
  }
}

/** The metric of a copier's sums, as the row prints it. */
function metricValue(sums: WordSums, metric: ScreenedMetric): Bounded {
  switch (metric) {
    case 'deals':
      return exactly(sums.deals);
    case 'closed_deals':
      return exactly(sums.closed);
    case 'investment_amount':
      return sums.invested;
    case 'trading_volume':
      return sums.volume;
    case 'pnl_total':
      return sums.pnl;
    case 'roi_total':
      return sums.deals === 0 ? ZERO_BOUNDED : dividedBy(times(HUNDRED_BOUNDED, sums.pnl), sums.invested);
  }
}
